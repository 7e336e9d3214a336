import { pipeline } from 'node:stream/promises';
import { Router, type Request } from 'express';
import { AppError, input, ok, validate } from '../../../kit/src/index.js';
import type { ImportDeps } from '../domain/deps.js';
import { createFastJob, reprocessFastJob, tempAsset, tempDraft, type FastJobInput } from '../domain/fast-jobs.js';
import { CODES, MSG } from '../messages.js';
import { assetParams, fastJobBody, jobIdParams } from './schemas.js';
import { requireScope, scope } from './scope.js';

const MAX_KEY = 120;

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

export function fastJobRoutes(deps: ImportDeps): Router {
  const router = Router();
  const byId = validate({ params: jobIdParams });
  router.post('/v1/import/docx/docx-fast-jobs', requireScope, validate({ body: fastJobBody }), async (req, res) => {
    const key = fastJobKey(req);
    const { job, replayed } = await createFastJob(deps, scope(res), input<FastJobInput>(req, 'body'), key);
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    ok(res, job, MSG.jobQueued, replayed ? 200 : 202);
  });
  router.get('/v1/import/docx/docx-fast-jobs/:id/temp-draft', requireScope, byId, async (req, res) => {
    ok(res, await tempDraft(deps, scope(res), input<{ id: string }>(req, 'params').id), MSG.fastDraft);
  });
  const asset = validate({ params: assetParams });
  router.get(
    '/v1/import/docx/docx-fast-jobs/:id/temp-draft/assets/:tempAssetId/content',
    requireScope,
    asset,
    async (req, res) => {
      const { id, tempAssetId } = input<{ id: string; tempAssetId: string }>(req, 'params');
      const content = await tempAsset(deps, scope(res), id, tempAssetId);
      res.setHeader('Content-Type', content.contentType);
      res.setHeader('Cache-Control', 'private, max-age=300');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      if (content.contentLength !== undefined) res.setHeader('Content-Length', String(content.contentLength));
      await pipeline(content.body, res);
    },
  );
  router.post('/v1/import/docx/docx-fast-jobs/:id/reprocess', requireScope, byId, async (req, res) => {
    ok(res, await reprocessFastJob(deps, scope(res), input<{ id: string }>(req, 'params').id), MSG.fastReprocessed);
  });
  return router;
}
