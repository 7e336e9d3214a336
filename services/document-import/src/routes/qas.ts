import { Router, type Request, type RequestHandler, type Response } from 'express';
import { readFile } from 'node:fs/promises';
import { ok, sse, statusFor, toAppError, upload, type SseStream } from '../../../kit/src/index.js';
import type { ImportDeps } from '../domain/deps.js';
import { precheckPackage } from '../domain/docx-file.js';
import { parseUpload } from '../domain/qas.js';
import { MAX_DOCX_BYTES } from '../messages.js';
import { requireScope, scope } from './scope.js';

/**
 * The one multipart `file`, `.docx` only, 413 at byte 50 MB + 1 while it streams, spooled to
 * `spool.dir`; 503 UPLOADS_BUSY past `spool.maxConcurrent` uploads at once. Build it once per app:
 * the routes that share it share the cap.
 */
export function docxUpload(spool: ImportDeps['uploadSpool']): RequestHandler {
  return upload({
    field: 'file',
    maxBytes: MAX_DOCX_BYTES,
    allowedExtensions: ['.docx'],
    spoolDir: spool.dir,
    maxConcurrent: spool.maxConcurrent,
  });
}

// The stream route: what the central directory shows is refused as a JSON 4xx before the stream
// opens; then progress, one event per question, the whole output, or one error event (with the
// error's details, as the JSON error would carry them: DOCX_NO_QUESTIONS_FOUND's what-was-seen).
async function streamParse(deps: ImportDeps, stream: SseStream, req: Request, res: Response): Promise<void> {
  const file = req.file!;
  await precheckPackage(new Uint8Array(await readFile(file.path)));
  stream.send('progress', { stage: 'received', fileName: file.originalName, bytes: file.size });
  stream.send('progress', { stage: 'parsing' });
  try {
    const out = await parseUpload(deps.parseQas, scope(res), file);
    const total = out.questions.length;
    stream.send('progress', { stage: 'parsed', totalQuestions: total });
    out.questions.forEach((question, index) => stream.send('question', { index, total, question }));
    stream.send('result', out);
  } catch (err) {
    const appErr = toAppError(err);
    if (statusFor(appErr) >= 500) deps.logger.error({ err }, 'stream parse failed');
    const event = { code: appErr.code, message: appErr.message, status: statusFor(appErr) };
    stream.send('error', appErr.details === undefined ? event : { ...event, details: appErr.details });
  }
  stream.close();
}

export function qasRoutes(deps: ImportDeps, docx: RequestHandler): Router {
  const router = Router();
  router.post('/v1/import/docx/qas', requireScope, docx, async (req, res) => {
    ok(res, await parseUpload(deps.parseQas, scope(res), req.file!));
  });
  router.post(
    '/v1/import/docx/qas/stream',
    requireScope,
    docx,
    sse((stream, req) => streamParse(deps, stream, req, req.res!), { registry: deps.streams }),
  );
  return router;
}
