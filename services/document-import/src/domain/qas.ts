import { readFile } from 'node:fs/promises';
import type { UploadedFile } from '../../../kit/src/core/index.js';
import type { QasOutput } from '../parser/index.js';
import { assertZipMagic, refusalOf } from './docx-file.js';

export interface QasRequest {
  organizationId: string;
  userId: string;
  fileName: string;
}

/** The parse behind the synchronous routes: the native parser, and the external one when configured. */
export type QasParser = (bytes: Uint8Array, req: QasRequest) => Promise<QasOutput>;

/** Checks, reads and parses one upload; `latency_ms` covers the check, the read and every parser pass. */
export async function parseUpload(
  parse: QasParser,
  who: Omit<QasRequest, 'fileName'>,
  file: UploadedFile,
): Promise<QasOutput> {
  const started = performance.now();
  const bytes = new Uint8Array(await readFile(file.path));
  assertZipMagic(bytes.subarray(0, 4));
  let out: QasOutput;
  try {
    out = await parse(bytes, { ...who, fileName: file.originalName });
  } catch (err) {
    throw refusalOf(err);
  }
  return { ...out, latency_ms: Math.round((performance.now() - started) * 100) / 100 };
}
