// What the API thread and a parse thread say to each other. Errors cross as plain data and become a DocxError again
// on the caller's side, so the routes' refusal table and the worker's job failure read them as before.
import { DocxError, type DocxErrorCode, type DocxErrorDetails } from '../parser/index.js';

export type TaskKind = 'parse' | 'precheck';

export interface TaskMessage {
  id: number;
  kind: TaskKind;
  bytes: Uint8Array;
  documentId?: string;
}

export interface WireError {
  /** set for a parser refusal */
  code?: DocxErrorCode;
  message: string;
  details?: DocxErrorDetails;
}

export type ThreadMessage =
  { ready: true } | { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WireError };

const STACK_OVERFLOW = 'Maximum call stack size exceeded';

/** A thrown value as data; running out of stack is the document's nesting, a refusal like any other. */
export function toWire(err: unknown): WireError {
  if (err instanceof DocxError) return { code: err.code, message: err.message, details: err.details };
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof RangeError && message.includes(STACK_OVERFLOW)) {
    return { code: 'DOCX_TOO_COMPLEX', message: 'the document is nested too deeply to read' };
  }
  return { message };
}

export function fromWire(e: WireError): Error {
  if (!e.code) return new Error(`the DOCX parser failed: ${e.message}`);
  return new DocxError(e.code, e.message, e.details ? { details: e.details } : {});
}
