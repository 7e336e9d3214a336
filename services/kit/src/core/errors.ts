import type { NextFunction, Request, Response } from 'express';
import { drainThen, DRAIN_LIMIT_BYTES } from './drain.js';
import type { Logger } from './logging.js';

export interface AppErrorOptions {
  details?: unknown;
  /** Response headers that belong to the error (Retry-After on 429, WWW-Authenticate on 401). */
  headers?: Record<string, string>;
  /** Only where a contract fixes a status the table would not give. */
  status?: number;
  cause?: unknown;
}

/**
 * One refused field in a VALIDATION_ERROR's `details` (`path` like `body.title`): what the http
 * layer's `validate()` builds and what domain rules add when they refuse input themselves.
 */
export interface FieldError {
  path: string;
  message: string;
}

/** The one error type services throw; the kit alone turns it into a status and a body. */
export class AppError extends Error {
  readonly code: string;
  readonly details?: unknown;
  readonly headers?: Record<string, string>;
  readonly status?: number;

  constructor(code: string, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = options.details;
    this.headers = options.headers;
    this.status = options.status;
  }
}

/**
 * Code to status, as data. Codes ending in `_NOT_FOUND` map to 404 by rule, other `_CONFLICT` and
 * `_TAKEN` codes to 409; a code listed here wins over the rule (AI_PREVIEW_CONFLICT is 400 because
 * the question-bank contract says so). Which contract text each code answers is listed in
 * services/kit/test/support/contract-errors.ts; the texts themselves live in each service's messages.ts.
 */
export const STATUS: Readonly<Record<string, number>> = Object.freeze({
  VALIDATION_ERROR: 400,
  BAD_REQUEST: 400,
  BODY_ENCODING_INVALID: 400,
  AI_PREVIEW_CONFLICT: 400,
  QUESTION_INVALID_FOR_TYPE: 400,
  QUESTION_NOT_IN_ATTEMPT: 400,
  EXAM_ID_MISMATCH: 400,
  EXAM_HAS_NO_QUESTIONS: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  EXAM_ACCESS_DENIED: 403,
  EXAM_PASSWORD_INVALID: 403,
  NOT_FOUND: 404,
  QUESTION_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  EMAIL_TAKEN: 409,
  PHONE_TAKEN: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  IDEMPOTENCY_REQUEST_IN_PROGRESS: 409,
  QUESTION_TYPE_CODE_TAKEN: 409,
  BLUEPRINT_INCOMPLETE: 409,
  FOLDER_NOT_EMPTY: 409,
  ATTEMPT_LOCKED: 409,
  ANSWER_VERSION_CONFLICT: 409,
  EXAM_DURATION_EXPIRED: 409,
  EXAM_NOT_PUBLISHED: 409,
  EXAM_OFFLINE: 409,
  EXAM_NOT_OPEN: 409,
  EXAM_CLOSED: 409,
  ATTEMPT_LIMIT_REACHED: 409,
  ACCESS_LINK_LIMIT_REACHED: 409,
  IMPORT_JOB_ACTIVE: 409,
  IMPORT_JOB_NOT_COMPLETED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  DOCX_INVALID_FILE: 415,
  // document-import's parser refusals (DocxErrorCode): a package that is not a DOCX is 415, one past
  // the size, entry, ratio or parse-sandbox limits 413, a parse past the time limit and a valid DOCX
  // holding no question 422 (nothing importable), a malformed package 400.
  DOCX_NOT_ZIP: 415,
  DOCX_UNSUPPORTED: 415,
  DOCX_TOO_LARGE: 413,
  DOCX_TOO_MANY_ENTRIES: 413,
  DOCX_COMPRESSION_RATIO: 413,
  DOCX_TOO_COMPLEX: 413,
  DOCX_PARSE_TIMEOUT: 422,
  DOCX_NO_QUESTIONS_FOUND: 422,
  DOCX_CORRUPT: 400,
  DOCX_MISSING_DOCUMENT: 400,
  DOCX_XML_DOCTYPE: 400,
  DOCX_XML_INVALID: 400,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  UPSTREAM_ERROR: 502,
  DEPENDENCY_UNAVAILABLE: 503,
  UPSTREAM_TIMEOUT: 504,
});

export function statusFor(err: AppError): number {
  if (err.status !== undefined) return err.status;
  const fromTable = STATUS[err.code];
  if (fromTable !== undefined) return fromTable;
  if (err.code.endsWith('_NOT_FOUND')) return 404;
  if (err.code.endsWith('_CONFLICT') || err.code.endsWith('_TAKEN')) return 409;
  return 500;
}

/** body-parser and friends throw errors with a `type` and a `status`; map the ones clients cause. */
const PARSER_ERRORS: Record<string, [string, string]> = {
  'entity.parse.failed': ['VALIDATION_ERROR', 'Malformed JSON body'],
  'entity.too.large': ['PAYLOAD_TOO_LARGE', 'Request body is too large'],
  'encoding.unsupported': ['UNSUPPORTED_MEDIA_TYPE', 'Unsupported content encoding'],
  'charset.unsupported': ['UNSUPPORTED_MEDIA_TYPE', 'Unsupported charset'],
  'request.aborted': ['VALIDATION_ERROR', 'Request aborted'],
  'request.size.invalid': ['VALIDATION_ERROR', 'Request size did not match content length'],
  'stream.encoding.set': ['INTERNAL_ERROR', 'Internal error'],
};

/** Normalises anything thrown into an AppError; unknown errors become INTERNAL_ERROR. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const type = (err as { type?: unknown } | null)?.type;
  if (typeof type === 'string' && PARSER_ERRORS[type]) {
    const [code, message] = PARSER_ERRORS[type];
    return new AppError(code, message, { cause: err });
  }
  // A body whose Content-Encoding (gzip, deflate, br) its bytes do not decode under: zlib's error,
  // passed on by the JSON parser. The client's fault, so a 400, never a 500 with a stack.
  if (isZlibError(err)) {
    return new AppError('BODY_ENCODING_INVALID', 'The request body is not valid data in its Content-Encoding', {
      cause: err,
    });
  }
  // Express decodes path parameters and throws a URIError for a malformed escape (`%E0%A4%A`).
  if (err instanceof URIError) {
    return new AppError('VALIDATION_ERROR', 'Malformed percent-escape in the request path', { cause: err });
  }
  if (isMongoUnavailable(err)) {
    return new AppError('DEPENDENCY_UNAVAILABLE', 'A dependency is unavailable', { cause: err });
  }
  return new AppError('INTERNAL_ERROR', 'Internal error', { cause: err });
}

function isZlibError(err: unknown): boolean {
  const e = err as { code?: unknown; errno?: unknown } | null;
  // zlib's codes are Z_DATA_ERROR, Z_BUF_ERROR, …; brotli's ERR__ERROR_FORMAT_… and the like.
  return typeof e?.code === 'string' && /^(?:Z_|ERR__ERROR_)/.test(e.code) && typeof e.errno === 'number';
}

function isMongoUnavailable(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  return name === 'MongoServerSelectionError' || name === 'MongoNetworkError' || name === 'MongoNotConnectedError';
}

/** The only place error bodies are built. 5xx are logged with the cause; 4xx at debug. */
export function errorMiddleware(logger: Logger) {
  return (err: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const appErr = toAppError(err);
    const status = statusFor(appErr);
    const log = (req as { log?: Logger }).log ?? logger;
    if (status >= 500) log.error({ err: appErr.cause ?? appErr, code: appErr.code }, 'request failed');
    else log.debug({ code: appErr.code, status }, 'request rejected');
    for (const [name, value] of Object.entries(appErr.headers ?? {})) res.setHeader(name, value);
    const error: { code: string; details?: unknown } = { code: appErr.code };
    if (appErr.details !== undefined) error.details = appErr.details;
    const send = () => void res.status(status).json({ success: false, message: appErr.message, error });
    // A body refused before it was read (an upload's 401, say) is read and discarded behind or
    // before this answer (drainThen), so a client still sending gets it; a 413 is an oversized
    // body, answered at once.
    if (status === 413) send();
    else drainThen(req, res, { limit: DRAIN_LIMIT_BYTES }, send);
  };
}

/** 404 for routes nobody declared, in the same error model. */
export function notFoundHandler(req: Request, _res: Response, next: NextFunction): void {
  next(new AppError('ROUTE_NOT_FOUND', `No route for ${req.method} ${req.path}`));
}
