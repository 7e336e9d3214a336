import { pipeline } from 'node:stream/promises';
import type { Request } from 'express';
import { AppError } from '../../../kit/src/core/index.js';
import { ok, routes, type JsonObject, type Route } from '../../../kit/src/http/index.js';
import type { ImportDeps } from '../domain/deps.js';
import { createFastJob, reprocessFastJob, tempAsset, tempDraft } from '../domain/fast-jobs.js';
import { CODES, MSG } from '../messages.js';
import { answers, DOCX_ERRORS, JOB_ERRORS, refused, SCOPE_HEADERS, SECURED } from './doc.js';
import { assetParams, fastJobBody, jobIdParams } from './schemas.js';
import { requireScope, scope } from './scope.js';

const MAX_KEY = 120;

const IDEMPOTENCY_KEY: JsonObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', maxLength: MAX_KEY },
  description: `Trimmed; more than ${MAX_KEY} characters is a 400. An equal key with the same organization, actor and questionStorageKey within 15 minutes returns that job before any fetch or enqueue.`,
};

const ASSET_BYTES: JsonObject = {
  description: 'The asset bytes, Content-Type from the document service, Cache-Control: private, max-age=300',
  headers: { 'Cache-Control': { schema: { type: 'string', const: 'private, max-age=300' } } },
  content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
};

/** The fast-job Idempotency-Key: trimmed; empty is none; past 120 characters a 400, not a silent cut. */
export function fastJobKey(req: Request): string | undefined {
  const raw = req.headers['idempotency-key'];
  const key = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!key) return undefined;
  if (key.length > MAX_KEY) {
    throw new AppError(CODES.validation, MSG.keyTooLong, {
      details: [{ path: 'Idempotency-Key', message: `must be at most ${MAX_KEY} characters` }],
    });
  }
  return key;
}

const route = routes<ImportDeps>();
const inScope = () => [requireScope];

const FAST_ERRORS = refused({ ...JOB_ERRORS, 409: 'Conflict' });
const FETCH_ERRORS = refused({ ...DOCX_ERRORS, 502: 'BadGateway', 503: 'Unavailable' });

/** The DOCX Fast routes: a job from a stored file, its materialized draft and images, a rerun. */
export const fastJobRoutes: ReadonlyArray<Route<ImportDeps>> = [
  route({
    method: 'post',
    path: '/v1/import/docx/docx-fast-jobs',
    before: inScope,
    body: fastJobBody,
    doc: {
      summary: 'A DOCX Fast job from a stored file',
      operationId: 'createFastJob',
      description:
        'questionFileName (or fileName) must end in .docx (415 DOCX_INVALID_FILE); the bytes are fetched from the document service by questionStorageKey and must start with the ZIP magic header. As for upload jobs, a DOCX without a question ends FAILED with DOCX_NO_QUESTIONS_FOUND (auto-approval is then never tried).',
      parameters: [IDEMPOTENCY_KEY, ...SCOPE_HEADERS],
      responses: {
        200: answers(
          'Replayed: the job an equal request made within 15 minutes (Idempotent-Replayed: true)',
          'ImportJobSummary',
          MSG.jobQueued,
        ),
        202: answers('Queued', 'ImportJobSummary', MSG.jobQueued),
        ...refused(JOB_ERRORS),
        ...FETCH_ERRORS,
      },
      extra: SECURED,
    },
    handle: async (req, res, deps) => {
      const key = fastJobKey(req);
      const { job, replayed } = await createFastJob(deps, scope(res), req.valid.body, key);
      if (replayed) res.setHeader('Idempotent-Replayed', 'true');
      ok(res, job, MSG.jobQueued, replayed ? 200 : 202);
    },
  }),
  route({
    method: 'get',
    path: '/v1/import/docx/docx-fast-jobs/:id/temp-draft',
    before: inScope,
    params: jobIdParams,
    doc: {
      summary: 'The materialized draft of a completed fast job',
      operationId: 'getTempDraft',
      description:
        '409 IMPORT_JOB_NOT_COMPLETED before completion; 404 for an upload (non-fast) job. expiresAt: completion + 24 h unless the worker stored one.',
      parameters: SCOPE_HEADERS,
      responses: { 200: answers('Success', 'TempDraft', MSG.fastDraft), ...FAST_ERRORS },
      extra: SECURED,
    },
    handle: async (req, res, deps) => {
      ok(res, await tempDraft(deps, scope(res), req.valid.params.id), MSG.fastDraft);
    },
  }),
  route({
    method: 'get',
    path: '/v1/import/docx/docx-fast-jobs/:id/temp-draft/assets/:tempAssetId/content',
    before: inScope,
    params: assetParams,
    doc: {
      summary: 'A materialized image of a completed fast job, streamed from the document service',
      operationId: 'getTempDraftAsset',
      parameters: SCOPE_HEADERS,
      responses: {
        200: ASSET_BYTES,
        ...FAST_ERRORS,
        ...refused({ 502: 'BadGateway', 503: 'Unavailable' }),
        431: {
          description:
            'The request line is longer than the HTTP server reads (16 KiB with the headers): a tempAssetId far past its 2048 characters, refused by Node before the route, without a body.',
        },
      },
      extra: SECURED,
    },
    handle: async (req, res, deps) => {
      const { id, tempAssetId } = req.valid.params;
      const content = await tempAsset(deps, scope(res), id, tempAssetId);
      res.setHeader('Content-Type', content.contentType);
      res.setHeader('Cache-Control', 'private, max-age=300');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      if (content.contentLength !== undefined) res.setHeader('Content-Length', String(content.contentLength));
      await pipeline(content.body, res);
    },
  }),
  route({
    method: 'post',
    path: '/v1/import/docx/docx-fast-jobs/:id/reprocess',
    before: inScope,
    params: jobIdParams,
    doc: {
      summary: 'Run a fast job again from its stored file',
      operationId: 'reprocessFastJob',
      description:
        '409 IMPORT_JOB_ACTIVE while PENDING or PROCESSING. The source is re-read from the document service, a fresh payload spooled under the same id (run + 1), the old output, review and counters cleared; the job is PENDING again.',
      parameters: SCOPE_HEADERS,
      responses: {
        200: answers('Success', 'ImportJobSummary', MSG.fastReprocessed),
        ...FAST_ERRORS,
        ...FETCH_ERRORS,
      },
      extra: SECURED,
    },
    handle: async (req, res, deps) => {
      ok(res, await reprocessFastJob(deps, scope(res), req.valid.params.id), MSG.fastReprocessed);
    },
  }),
];
