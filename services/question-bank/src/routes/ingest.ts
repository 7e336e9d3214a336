import { Router } from 'express';
import { input, ok, onlyMethods, readActor, requireRole, validate } from '../../../kit/src/index.js';
import type { QuestionBankDeps } from '../domain/deps.js';
import { idempotencyKeyOf } from '../domain/ingest/identity.js';
import { ingestDocxOutput } from '../domain/ingest/ingest.js';
import type { IngestInput } from '../domain/ingest/types.js';
import { writerOf } from '../domain/questions/scope.js';
import { ingestBody } from '../schemas/ingest.js';

export const INGEST_PATH = '/v1/questions/import-docx-output';

// Internal like the read-model backfill routes: the scope headers (role ADMIN or TEACHER,
// X-Organization-Id) as for any write, and X-Internal-Token when INTERNAL_API_TOKEN is set.
const writers = requireRole('ADMIN', 'TEACHER');

export function ingestRoutes(deps: QuestionBankDeps): Router {
  const router = Router();
  router.post(INGEST_PATH, writers, validate({ body: ingestBody }), async (req, res) => {
    const idempotencyKey = idempotencyKeyOf(req.headers['idempotency-key']);
    const w = writerOf(readActor(req));
    const out = await ingestDocxOutput(deps, w, { input: input<IngestInput>(req, 'body'), idempotencyKey });
    ok(
      res,
      out.result,
      out.replayed ? 'DOCX output already imported' : 'DOCX output imported',
      out.replayed ? 200 : 201,
    );
  });
  onlyMethods(router, INGEST_PATH, ['POST']);
  return router;
}
