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
import type { Logger } from '../../../kit/src/core/index.js';
import type { MongoHandle, Outbox } from '../../../kit/src/data/index.js';
import type { QuestionBankModels } from '../store/models.js';

export type { QuestionBankModels } from '../store/models.js';

export interface QuestionBankDeps {
  db: MongoHandle;
  models: QuestionBankModels;
  outbox: Outbox;
  logger: Logger;
  clock: () => Date;
  newId: () => string;
  /** The permanent-delete job runner (service.ts starts it); without it jobs wait as `pending`. */
  deletion?: DeletionRunner;
  /** Checks the import grants the DOCX workers ingest under (kit importGrantKey of INTERNAL_API_TOKEN). */
  importGrantKey?: Buffer;
}

/**
 * The permanent-delete job runner as the use cases see it (deletion/runner.ts implements it): declared
 * here, beside the deps that carry it, so the deps import nothing of the code that takes them.
 */
export interface DeletionRunner {
  readonly owner: string;
  start(): void;
  /** A job was created here: look now instead of at the next poll. */
  kick(): void;
  /** Finishes the current batch, hands the job back (`pending`, phase `interrupted`), stops. */
  stop(): Promise<void>;
  /** In-process change notices for one job (the event streams also poll, for other replicas). */
  subscribe(jobId: string, listener: () => void): () => void;
  notify(jobId: string): void;
}
