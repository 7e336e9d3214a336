import type { Request, RequestHandler, Response } from 'express';
import { readFile } from 'node:fs/promises';
import { statusFor, toAppError } from '../../../kit/src/core/index.js';
import { ok, routes, sse, upload, type Route, type SseStream } from '../../../kit/src/http/index.js';
import type { ImportDeps } from '../domain/deps.js';
import { precheckPackage } from '../domain/docx-file.js';
import { submitUploadJob } from '../domain/jobs.js';
import { parseUpload } from '../domain/qas.js';
import { MAX_DOCX_BYTES, MSG } from '../messages.js';
import { answers, docxForm, eventStream, refused, SCOPE_ERRORS, SCOPE_HEADERS, SECURED } from './doc.js';
import { uploadJobFields } from './schemas.js';
import { requireScope, scope } from './scope.js';
import { streamRegistry } from './streams.js';

const uploads = new WeakMap<ImportDeps, RequestHandler>();

/**
 * The one multipart `file`, `.docx` only, 413 at byte 50 MB + 1 while it streams, spooled to
 * `spool.dir`; 503 UPLOADS_BUSY past `spool.maxConcurrent` uploads at once, 429 past a caller's
 * or an organization's share of them (the scope, checked before), 408 for an upload that stops or
 * trickles (`spool.pace`). One per app (per `deps`): the three upload routes share it, so they
 * share the caps.
 */
export function docxUpload(deps: ImportDeps): RequestHandler {
  const known = uploads.get(deps);
  if (known) return known;
  const { dir, maxConcurrent, maxPerClient, maxPerOrganization, pace } = deps.uploadSpool;
  const handler = upload({
    field: 'file',
    maxBytes: MAX_DOCX_BYTES,
    allowedExtensions: ['.docx'],
    spoolDir: dir,
    maxConcurrent,
    maxPerClient,
    maxPerOrganization,
    pace,
    holders: (_req, res) => ({ client: scope(res).userId, organization: scope(res).organizationId }),
  });
  uploads.set(deps, handler);
  return handler;
}

/** The scope first (an upload it refuses is never read), then the upload. */
const scopedUpload = (deps: ImportDeps): RequestHandler[] => [requireScope, docxUpload(deps)];

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

const route = routes<ImportDeps>();

const UPLOAD_ERRORS = refused({
  ...SCOPE_ERRORS,
  408: 'UploadTooSlow',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  429: 'UploadShareExceeded',
});
const BUSY = refused({ 503: 'UploadsBusyOrUnavailable' });

/** The upload routes: a DOCX parsed at once, parsed as a stream, or queued as a job. */
export const qasRoutes: ReadonlyArray<Route<ImportDeps>> = [
  route({
    method: 'post',
    path: '/v1/import/docx/qas',
    before: scopedUpload,
    doc: {
      summary: 'Parse a DOCX now: the QAS output with latency_ms',
      operationId: 'parseQas',
      description:
        'The native parser; with DOCX_PARSER_URL the external parser too (PARSER_ENGINE_NOT_CONNECTED beside the native result when not configured). latency_ms covers the whole parse after the upload arrived.',
      parameters: SCOPE_HEADERS,
      ...docxForm(),
      responses: {
        200: answers('Success', 'QasOutput'),
        ...UPLOAD_ERRORS,
        ...refused({ 422: 'UnprocessableDocument' }),
        ...BUSY,
      },
      extra: SECURED,
    },
    handle: async (req, res, deps) => {
      ok(res, await parseUpload(deps.parseQas, scope(res), req.file!));
    },
  }),
  route({
    method: 'post',
    path: '/v1/import/docx/qas/stream',
    before: scopedUpload,
    doc: {
      summary: 'Parse a DOCX, streamed as server-sent events',
      operationId: 'streamQas',
      description:
        'Refusals of the file (extension, ZIP magic, size, the package: entries, sizes, ratios, XML parts, no word/document.xml) are the JSON 4xx of the synchronous route; the stream opens after them.',
      parameters: SCOPE_HEADERS,
      ...docxForm(),
      responses: {
        200: eventStream(
          "Events in order: `progress` {stage: received, fileName, bytes}, `progress` {stage: parsing}, `progress` {stage: parsed, totalQuestions}, one `question` {index, total, question} per question, then `result` (the QAS output). A failure after the stream opened is one `error` event {code, message, status, details?} and the stream ends; a DOCX without a question ends this way with DOCX_NO_QUESTIONS_FOUND, status 422 and the details of the synchronous route's 422.",
          ['progress', 'question', 'result', 'error'],
        ),
        ...UPLOAD_ERRORS,
        ...BUSY,
      },
      extra: SECURED,
    },
    handle: (req, res, deps, next) => {
      sse((stream) => streamParse(deps, stream, req, res), { registry: streamRegistry(deps) })(req, res, next);
    },
  }),
  route({
    method: 'post',
    path: '/v1/import/docx/qas/jobs',
    before: scopedUpload,
    body: uploadJobFields,
    doc: {
      summary: 'Queue a DOCX upload: spooled, answered at once with the PENDING job',
      operationId: 'createUploadJob',
      description:
        'The package is checked before anything is spooled (the 4xx below); the question structure is left to the worker: a DOCX without a question ends FAILED with errorSummary.code DOCX_NO_QUESTIONS_FOUND (and its details), never COMPLETED with no question.',
      parameters: SCOPE_HEADERS,
      ...docxForm(uploadJobFields),
      responses: {
        202: answers('Queued (PENDING, job.queued)', 'ImportJobSummary', MSG.jobQueued),
        ...UPLOAD_ERRORS,
        ...refused({ 422: 'UnprocessableDocument' }),
        ...BUSY,
      },
      extra: SECURED,
    },
    handle: async (req, res, deps) => {
      const job = await submitUploadJob(deps, scope(res), req.file!, req.valid.body);
      ok(res, job, MSG.jobQueued, 202);
    },
  }),
];
