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
  | 'DOCX_XML_INVALID';

export class DocxError extends Error {
  constructor(
    readonly code: DocxErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DocxError';
  }
}
