import {
  AppError,
  IMPORT_GRANT_HEADER,
  isWorkerCall,
  MAX_IMPORT_GRANT_LENGTH,
  readActor,
} from '../../../kit/src/core/index.js';
import { ok, ref, type Route } from '../../../kit/src/http/index.js';
import type { QuestionBankDeps } from '../domain/deps.js';
import { assertImportGrant } from '../domain/ingest/grant.js';
import { idempotencyKeyOf } from '../domain/ingest/identity.js';
import { ingestDocxOutput } from '../domain/ingest/ingest.js';
import { writerOf } from '../domain/questions/scope.js';
import { ingestBody } from '../schemas/ingest.js';
import { okWithMessage, WRITE_ERRORS, WRITE_HEADERS } from './docs.js';
import { route, writers } from './declare.js';

export const INGEST_PATH = '/v1/questions/import-docx-output';

/** The grant header as documented, whoever calls: longer than MAX_IMPORT_GRANT_LENGTH is 400, never ignored. */
function grantHeader(value: string | undefined): string | undefined {
  if (value === undefined || value.length <= MAX_IMPORT_GRANT_LENGTH) return value;
  throw new AppError('VALIDATION_ERROR', `Invalid ${IMPORT_GRANT_HEADER} header`, {
    details: [{ path: IMPORT_GRANT_HEADER, message: `must be at most ${MAX_IMPORT_GRANT_LENGTH} characters` }],
  });
}
const RESULT = ref('schemas', 'IngestResult');
const TEXT = { imported: 'DOCX output imported', replayed: 'DOCX output already imported' } as const;

/**
 * Internal like the read-model backfill routes: the scope headers (role ADMIN or TEACHER,
 * X-Organization-Id) as for any write, and X-Internal-Token when INTERNAL_API_TOKEN is set.
 */
export const ingestRoutes: ReadonlyArray<Route<QuestionBankDeps>> = [
  route({
    method: 'post',
    path: INGEST_PATH,
    body: ingestBody,
    before: writers,
    doc: {
      summary: "Ingest the DOCX parser's output (internal: called by the document-import service on approval)",
      operationId: 'importDocxOutput',
      description:
        "Issue 20: a subjectId held by another organization's taxonomy is 404 TAXONOMY_REF_NOT_FOUND; passage groups are always created in the writer's organization.",
      parameters: [
        ...WRITE_HEADERS,
        {
          name: IMPORT_GRANT_HEADER,
          in: 'header',
          required: false,
          description:
            "Required with the DOCX workers' credential (WORKER_API_TOKEN), ignored with the internal token: the grant the document-import API signed for the import job's run (kit grant.ts). It must be signed with the key derived from INTERNAL_API_TOKEN, unexpired, and name this request's X-Organization-Id, X-User-Id and body sourceImportJobId; otherwise 403 FORBIDDEN with details.reason missing, malformed, signature, expired or mismatch (issue 33). Longer than 2048 characters is 400 VALIDATION_ERROR with either credential.",
          schema: { type: 'string', maxLength: MAX_IMPORT_GRANT_LENGTH },
        },
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Trimmed; blank is absent; 1-120 printable ASCII characters after trimming, else 400 (never cut).',
          schema: { type: 'string', maxLength: 120, pattern: '^[\\x20-\\x7e]*$' },
        },
      ],
      responses: {
        200: okWithMessage(
          'A replay: the ledger existed (message `DOCX output already imported`); same ingestId, documentId and questionIds. Also the answer of a retry that resumed a half-done ingest.',
          RESULT,
          TEXT.replayed,
        ),
        201: okWithMessage('Imported now (message `DOCX output imported`)', RESULT, TEXT.imported),
        ...WRITE_ERRORS,
      },
    },
    handle: async (req, res, deps) => {
      const idempotencyKey = idempotencyKeyOf(req.headers['idempotency-key']);
      const token = grantHeader(req.header(IMPORT_GRANT_HEADER));
      const w = writerOf(readActor(req));
      if (isWorkerCall(res)) {
        const nowSeconds = Math.floor(deps.clock().getTime() / 1000);
        assertImportGrant(deps.importGrantKey, token, {
          writer: w,
          jobId: req.valid.body.sourceImportJobId,
          nowSeconds,
        });
      }
      const out = await ingestDocxOutput(deps, w, { input: req.valid.body, idempotencyKey });
      ok(res, out.result, out.replayed ? TEXT.replayed : TEXT.imported, out.replayed ? 200 : 201);
    },
  }),
];
