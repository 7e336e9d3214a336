import { AppError } from '../../../../kit/src/core/index.js';
import { VERSION_BODY_FIELDS, type QuestionRow, type QuestionStatus } from '../../store/question-models.js';
import { deleteOwnedProjections, deleteVersionsUpTo } from '../../store/deletion-store.js';
import * as store from '../../store/question-store.js';
import { forgetPreviewsOf } from '../ai-preview/records.js';
import type { QuestionBankDeps } from '../deps.js';
import { hasProjectedUsageOrCloneRefs } from '../hydrate.js';
import { tombstoneChange, upsertChange } from './projection.js';
import { notFound, writeFilter, type Writer } from './scope.js';
import { stampFor } from './write.js';

const MAX_CAS_ROUNDS = 8;

// What a removed question's shell keeps: its id, scope and sourceVersion (see question-models).
const CLEARED = [...VERSION_BODY_FIELDS, 'tags', 'searchTokens', 'sourceMetadataJson', 'sourceUrl'];

async function setStatus(deps: QuestionBankDeps, row: QuestionRow, status: QuestionStatus): Promise<boolean> {
  const next: QuestionRow = { ...row, status, searchVersion: row.searchVersion + 1, updatedAt: deps.clock() };
  return deps.outbox.transaction((unit, session) =>
    store.casUpdateQuestion(
      deps.models,
      { id: row._id, expected: row.searchVersion },
      {
        set: { status, searchVersion: next.searchVersion, updatedAt: next.updatedAt },
        stamp: stampFor(deps, unit, upsertChange(next)),
      },
      session,
    ),
  );
}

async function removeRow(deps: QuestionBankDeps, row: QuestionRow): Promise<boolean> {
  const version = row.searchVersion + 1;
  const now = deps.clock();
  const wrote = await deps.outbox.transaction((unit, session) =>
    store.casUpdateQuestion(
      deps.models,
      { id: row._id, expected: row.searchVersion },
      {
        set: { removedAt: now, currentVersionId: null, searchVersion: version, updatedAt: now },
        unset: CLEARED,
        stamp: stampFor(deps, unit, tombstoneChange({ ...row, searchVersion: version })),
      },
      session,
    ),
  );
  // Only this service's rows: versions and its read models of the question (never other owners').
  if (wrote)
    await Promise.all([
      deleteVersionsUpTo(deps.models, row._id, row.versionNumber),
      deleteOwnedProjections(deps.models, row._id),
    ]);
  if (wrote) await forgetPreviewsOf(deps, [row._id]);
  return wrote;
}

/**
 * Permanent delete: removes the row matching `filter` whatever its usage, with its tombstone.
 * `first` may be the row already read (a job's batch); false when no row matches any more.
 */
export async function removeForever(
  deps: QuestionBankDeps,
  filter: Record<string, unknown>,
  first: QuestionRow | string,
): Promise<boolean> {
  const id = typeof first === 'string' ? first : first._id;
  let row: QuestionRow | null = typeof first === 'string' ? null : first;
  for (let round = 0; round < MAX_CAS_ROUNDS; round += 1) {
    row ??= await store.findQuestion(deps.models, { ...filter, _id: id });
    if (!row) return false;
    if (await removeRow(deps, row)) return true;
    row = null;
  }
  throw new AppError('QUESTION_CONFLICT', 'The question kept changing; try again');
}

export interface DeleteResult {
  id: string;
  deleted: boolean;
  archived: boolean;
}

/** Archive when other services use it or a same-organization clone points at it; else remove. */
export async function deleteQuestion(deps: QuestionBankDeps, w: Writer, id: string): Promise<DeleteResult> {
  for (let round = 0; round < MAX_CAS_ROUNDS; round += 1) {
    const row = await store.findQuestion(deps.models, { ...writeFilter(w), _id: id });
    if (!row) throw notFound(id);
    const kept = await hasProjectedUsageOrCloneRefs(deps, row.organizationId, [row._id]);
    if (kept.has(row._id)) {
      if (row.status === 'ARCHIVED' || (await setStatus(deps, row, 'ARCHIVED')))
        return { id, deleted: false, archived: true };
    } else if (await removeRow(deps, row)) return { id, deleted: true, archived: false };
  }
  throw new AppError('QUESTION_CONFLICT', 'The question kept changing; try again');
}

export interface BulkStatusResult {
  requested: number;
  updated: number;
}

/** Distinct ids; rows outside the writer's scope are skipped; a row already in the status counts. */
export async function bulkSetStatus(
  deps: QuestionBankDeps,
  w: Writer,
  input: { ids: string[]; status: QuestionStatus },
): Promise<BulkStatusResult> {
  const ids = [...new Set(input.ids)];
  let updated = 0;
  for (const id of ids) {
    for (let round = 0; round < MAX_CAS_ROUNDS; round += 1) {
      const row = await store.findQuestion(deps.models, { ...writeFilter(w), _id: id });
      if (!row) break;
      if (row.status === input.status || (await setStatus(deps, row, input.status))) {
        updated += 1;
        break;
      }
    }
  }
  return { requested: ids.length, updated };
}
