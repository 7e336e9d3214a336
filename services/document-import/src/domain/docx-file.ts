import { open } from 'node:fs/promises';
import { AppError } from '../../../kit/src/core/index.js';
import { DocxError } from '../parser/index.js';
import { parserSandbox } from '../sandbox/index.js';
import { hasZipMagic } from '../parser/zip.js';
import { CODES, MSG } from '../messages.js';

/**
 * A parser refusal as the 4xx the service answers (its status is the kit's STATUS for the code, as
 * openapi.json states it); anything else is rethrown unchanged.
 */
export function refusalOf(err: unknown): unknown {
  if (!(err instanceof DocxError)) return err;
  const details = { code: err.code, ...err.details };
  return new AppError(err.code, err.message, { details });
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
