import { AppError, type Actor } from '../../../../kit/src/core/index.js';
import * as store from '../../store/catalog-store.js';
import type { QuestionBankDeps } from '../deps.js';
import { writeScope } from './scope.js';
import { deleteTypeRow, writableType, type TypeStatus } from './types.js';

export interface BulkFailure {
  id: string;
  code: string;
}

export interface BulkStatusResult {
  requested: number;
  updated: number;
  failed: BulkFailure[];
}

export interface BulkDeleteResult {
  requested: number;
  deleted: number;
  archived: number;
  failed: BulkFailure[];
}

function failureOf(id: string, err: unknown): BulkFailure {
  if (err instanceof AppError) return { id, code: err.code };
  throw err;
}

/** Deduplicated, then each id under the single-item rules; one id's refusal does not stop the rest. */
export async function bulkTypeStatus(
  deps: QuestionBankDeps,
  actor: Actor,
  input: { ids: string[]; status: TypeStatus },
): Promise<BulkStatusResult> {
  const scope = writeScope(actor);
  const ids = [...new Set(input.ids)];
  const result: BulkStatusResult = { requested: ids.length, updated: 0, failed: [] };
  for (const id of ids) {
    try {
      await writableType(deps, scope, id);
      await store.updateType(deps.models, id, { status: input.status });
      result.updated += 1;
    } catch (err) {
      result.failed.push(failureOf(id, err));
    }
  }
  return result;
}

export async function bulkTypeDelete(
  deps: QuestionBankDeps,
  actor: Actor,
  input: { ids: string[] },
): Promise<BulkDeleteResult> {
  const scope = writeScope(actor);
  const ids = [...new Set(input.ids)];
  const result: BulkDeleteResult = { requested: ids.length, deleted: 0, archived: 0, failed: [] };
  for (const id of ids) {
    try {
      const outcome = await deleteTypeRow(deps, await writableType(deps, scope, id));
      if (outcome.deleted) result.deleted += 1;
      else result.archived += 1;
    } catch (err) {
      result.failed.push(failureOf(id, err));
    }
  }
  return result;
}
