// The contract between the two halves of this service (questions core and catalog):
// - `models` carries both halves' mongoose models: `questionModels(conn)` (Question, the outbox
//   owner of search events, and QuestionVersion) and `catalogModels(conn)` (groups, folders,
//   types, taxonomy refs, usage counts, relation refs, exam refs).
// - Question use cases hydrate through `hydrateQuestions(deps, rows, { view })` in
//   domain/hydrate.ts: it takes plain question views (with `id`) and adds `_count` (zero
//   placeholders), named refs, `createdBy`, `organization`, `customType`, `group` in batched
//   queries, never one query per row.
// - Catalog code reads questions only through store/question-store.ts and never writes them
//   (every question write must carry its search event through `outbox`).
// - `clock` and `newId` are the only time and id sources, so tests can pin them.
import type { Logger, MongoHandle, Outbox } from '../../../kit/src/index.js';
import type { AiPreviewModels } from '../store/ai-preview-models.js';
import type { CatalogModels } from '../store/catalog-models.js';
import type { DeletionModels } from '../store/deletion-models.js';
import type { IngestModels } from '../store/ingest-models.js';
import type { QuestionModels } from '../store/question-models.js';
import type { DeletionRunner } from './deletion/runner.js';

export type QuestionBankModels = QuestionModels & CatalogModels & DeletionModels & AiPreviewModels & IngestModels;

export interface QuestionBankDeps {
  db: MongoHandle;
  models: QuestionBankModels;
  outbox: Outbox;
  logger: Logger;
  clock: () => Date;
  newId: () => string;
  /** The permanent-delete job runner (service.ts starts it); without it jobs wait as `pending`. */
  deletion?: DeletionRunner;
}
