import { open } from 'node:fs/promises';
import { AppError } from '../../../kit/src/core/index.js';
import { DocxError, type DocxErrorCode } from '../parser/index.js';
import { parserSandbox } from '../sandbox/index.js';
import { hasZipMagic } from '../parser/zip.js';
import { CODES, MSG } from '../messages.js';

// The refusal statuses openapi.json states for the parser's codes. A document without a question is
// a valid DOCX holding nothing importable: 422, with what the parser saw in the details.
const REFUSAL_STATUS: Record<DocxErrorCode, number> = {
  DOCX_NOT_ZIP: 415,
  DOCX_UNSUPPORTED: 415,
  DOCX_TOO_LARGE: 413,
  DOCX_TOO_MANY_ENTRIES: 413,
  DOCX_COMPRESSION_RATIO: 413,
  // The parse sandbox's limits: too many elements, too deep or too much memory is too large a
  // document; past the time limit it is a DOCX the service will not process.
  DOCX_TOO_COMPLEX: 413,
  DOCX_PARSE_TIMEOUT: 422,
  DOCX_CORRUPT: 400,
  DOCX_MISSING_DOCUMENT: 400,
  DOCX_XML_DOCTYPE: 400,
  DOCX_XML_INVALID: 400,
  DOCX_NO_QUESTIONS_FOUND: 422,
};

/** A parser refusal as the 4xx the service answers; anything else is rethrown unchanged. */
export function refusalOf(err: unknown): unknown {
  if (!(err instanceof DocxError)) return err;
  const details = { code: err.code, ...err.details };
  return new AppError(err.code, err.message, { status: REFUSAL_STATUS[err.code], details });
}

export function isDocxName(name: string): boolean {
  return name.toLowerCase().endsWith('.docx');
}

export function assertDocxName(name: string, path = 'fileName'): void {
  if (!isDocxName(name))
    throw new AppError(CODES.invalidFile, MSG.extensionDocx, { details: [{ path, message: MSG.extensionDocx }] });
}

export function assertZipMagic(head: Uint8Array): void {
  if (!hasZipMagic(head)) throw new AppError(CODES.invalidFile, MSG.notDocx);
}

/** Reads the first bytes of an uploaded file and refuses it unless it starts with the ZIP magic. */
export async function assertZipMagicFile(path: string): Promise<void> {
  const fh = await open(path, 'r');
  try {
    const head = new Uint8Array(4);
    await fh.read(head, 0, 4, 0);
    assertZipMagic(head);
  } finally {
    await fh.close();
  }
}

/**
 * Everything the parser would refuse about the package itself, checked before a job is spooled or
 * a stream opens: magic, ZIP64, entries, sizes and ratios while inflating (bounded, so a bomb never
 * gets its memory), the XML parts (DOCTYPE, entities, nesting), word/document.xml present. The
 * question structure is left to the parse.
 */
export async function precheckPackage(bytes: Uint8Array): Promise<void> {
  assertZipMagic(bytes.subarray(0, 4));
  try {
    // In a parse thread: inflating and reading a hostile package never runs on the API's event loop.
    await parserSandbox().precheck(bytes);
  } catch (err) {
    throw refusalOf(err);
  }
}
