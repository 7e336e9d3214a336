// Every refusal of an uploaded file carries a stable code so callers can map it to a 4xx.
export type DocxErrorCode =
  | 'DOCX_NOT_ZIP'
  | 'DOCX_CORRUPT'
  | 'DOCX_TOO_MANY_ENTRIES'
  | 'DOCX_TOO_LARGE'
  | 'DOCX_COMPRESSION_RATIO'
  | 'DOCX_UNSUPPORTED'
  | 'DOCX_MISSING_DOCUMENT'
  | 'DOCX_XML_DOCTYPE'
  | 'DOCX_XML_INVALID'
  // A valid document in which no question was found: a failure, never an empty success.
  | 'DOCX_NO_QUESTIONS_FOUND'
  // More XML nodes, paragraphs, runs, cells, definitions or nesting than the limits (limits.ts), or more memory
  // than the parse sandbox gives one document.
  | 'DOCX_TOO_COMPLEX'
  // The parse sandbox stopped a parse that ran past its time limit.
  | 'DOCX_PARSE_TIMEOUT';

/** What the parser saw in a document it could not use: body paragraphs, tables, the first non-empty lines. */
export interface DocxSeen {
  paragraphs: number;
  tables: number;
  firstLines: string[];
}

/** Which limit a document passed: the part, what was counted and the limit. */
export interface DocxLimitDetails {
  part: string;
  limit: string;
  max: number;
}

export type DocxErrorDetails = DocxSeen | DocxLimitDetails;

export interface DocxErrorOptions {
  details?: DocxErrorDetails;
}

export class DocxError extends Error {
  readonly details?: DocxErrorDetails;

  constructor(
    readonly code: DocxErrorCode,
    message: string,
    options: DocxErrorOptions = {},
  ) {
    super(message);
    this.name = 'DocxError';
    if (options.details) this.details = options.details;
  }
}
