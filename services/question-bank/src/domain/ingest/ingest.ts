// DOCX output ingest: the ledger first (PENDING, with every id planned), then versions, passage
// groups and hidden questions (idempotent by id), then one flip that makes every question visible
// with its search event, then the ledger COMPLETE. On a replica set the row writes run in one
// transaction; without one, a crash at any point leaves no visible question, or all of them, and
// an identical retry resumes with the same ids.
import { AppError } from '../../../../kit/src/core/index.js';
import { isDuplicateKey } from '../../../../kit/src/data/index.js';
import type { IngestLedgerRow } from '../../store/ingest-models.js';
import * as store from '../../store/ingest-store.js';
import type { QuestionBankDeps } from '../deps.js';
import { upsertChange } from '../questions/projection.js';
import { assertOwnRefs } from '../questions/refs.js';
import type { Writer } from '../questions/scope.js';
import { stampFor } from '../questions/write.js';
import { withUniqueGroups } from './groups.js';
import { digestOf, identitiesOf, resolveExisting } from './identity.js';
import { buildRows, planIds, type IngestRows } from './plan.js';
import { ingestResult, type IngestResult } from './result.js';
import type { IngestInput } from './types.js';

export const WRITE_BATCH = 50;

export type IngestStep = 'versions' | 'groups' | 'questions' | 'flip';

/** Test seam: called after each batch is written (a throw there is a crash mid-ingest). */
export interface IngestHooks {
  afterWrite?: (step: IngestStep, written: number) => void | Promise<void>;
}

export interface IngestRequest {
  input: IngestInput;
  idempotencyKey?: string;
}

async function claimLedger(deps: QuestionBankDeps, w: Writer, req: IngestRequest) {
  const digest = digestOf(req.input);
  const identities = identitiesOf(req.idempotencyKey, req.input, digest);
  const now = deps.clock();
  const row: IngestLedgerRow = {
    _id: deps.newId(),
    organizationId: w.organizationId,
    createdById: w.userId,
    identities,
    idempotencyKey: req.idempotencyKey ?? null,
    sourceImportJobId: req.input.sourceImportJobId ?? null,
    digest,
    documentId: req.input.document_id,
    state: 'PENDING',
    plan: planIds(req.input, deps.newId),
    resumes: 0,
    createdAt: now,
    updatedAt: now,
    completedAt: null,
  };
  try {
    await store.insertLedger(deps.models, row);
    return { ledger: row, existed: false };
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
  const found = await store.findLedgers(deps.models, w.organizationId, identities);
  const existing = resolveExisting(found, { identities, digest });
  if (existing instanceof AppError) throw existing;
  // Ledgers are never deleted: a duplicate key always leaves the row that caused it.
  if (!existing) throw new AppError('IMPORT_JOB_CONFLICT', 'The import ledger changed; retry');
  return { ledger: existing, existed: true };
}

async function inBatches<T>(
  rows: T[],
  write: (batch: T[]) => Promise<unknown>,
  done: (written: number) => void | Promise<void>,
) {
  for (let at = 0; at < rows.length; at += WRITE_BATCH) {
    const batch = rows.slice(at, at + WRITE_BATCH);
    await write(batch);
    await done(at + batch.length);
  }
}

async function writeRows(deps: QuestionBankDeps, ledger: IngestLedgerRow, rows: IngestRows, hooks: IngestHooks) {
  const m = deps.models;
  const after = (step: IngestStep) => (n: number) => hooks.afterWrite?.(step, n);
  await deps.outbox.transaction(async (unit, session) => {
    await inBatches(rows.versions, (b) => store.insertVersions(m, b, session), after('versions'));
    await store.upsertGroups(m, rows.groups, session);
    await after('groups')(rows.groups.length);
    await inBatches(rows.questions, (b) => store.insertHiddenQuestions(m, b, ledger._id, session), after('questions'));
    const flips = rows.questions.map((q) => ({ id: q._id, stamp: stampFor(deps, unit, upsertChange(q)) }));
    await store.flipQuestions(m, flips, ledger._id, session);
    await after('flip')(flips.length);
    await store.markComplete(m, ledger._id, deps.clock(), session);
  });
}

export interface IngestOutcome {
  result: IngestResult;
  /** The ledger existed before this request (a replay, or the resume of a half-done ingest). */
  replayed: boolean;
}

export async function ingestDocxOutput(
  deps: QuestionBankDeps,
  w: Writer,
  req: IngestRequest,
  hooks: IngestHooks = {},
): Promise<IngestOutcome> {
  req = { ...req, input: withUniqueGroups(req.input) };
  await assertOwnRefs(deps, w, { subjectId: req.input.subjectId });
  const { ledger, existed } = await claimLedger(deps, w, req);
  const rows = buildRows(req.input, ledger);
  if (ledger.state !== 'COMPLETE') {
    if (existed) await store.markResumed(deps.models, ledger._id, deps.clock());
    await writeRows(deps, ledger, rows, hooks);
  }
  return { result: ingestResult(req.input, ledger, rows), replayed: existed };
}
