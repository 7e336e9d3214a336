import { AppError, type Actor } from '../../../../kit/src/core/index.js';
import { isDuplicateKey } from '../../../../kit/src/data/index.js';
import { CORE_TYPES, type CoreType, type QuestionTypeRow } from '../../store/catalog-models.js';
import { findTypes, type TypeFilter } from '../../store/catalog-lists.js';
import * as store from '../../store/catalog-store.js';
import type { QuestionBankDeps } from '../deps.js';
import { literalPattern, readScope, writeScope, type ReadScope, type WriteScope } from './scope.js';

export type TypeStatus = QuestionTypeRow['status'];
export type TypeView = Omit<QuestionTypeRow, '_id' | 'usageCount'> & { id: string; usageCount?: number };

export interface ListTypesQuery {
  summary?: boolean;
  status?: TypeStatus;
  q?: string;
  organizationId?: string;
  allOrgs?: boolean;
}

export interface CreateTypeInput {
  code: string;
  name: string;
  baseType: CoreType;
  status?: TypeStatus;
}

export interface PatchTypeInput {
  code?: string;
  name?: string;
  baseType?: CoreType;
  status?: TypeStatus;
  isSystem?: boolean;
}

// A definition list is a picker, not a paged list: the first 500 (system first, then by code).
const TYPE_LIST_CAP = 500;

/** `code` without an organization; `<organizationId>:<code>` with one (ids allow `:`). */
export function systemTypeId(organizationId: string | null, code: string): string {
  return organizationId === null ? code : `${organizationId}:${code}`;
}

export function toTypeView(row: QuestionTypeRow, summary = false): TypeView {
  const { _id, usageCount, ...rest } = row;
  return summary ? { id: _id, ...rest } : { id: _id, ...rest, usageCount };
}

// usageCount is the larger of the stored read model and the live questions that name the
// definition: nothing else feeds the read model, and a used definition must never read as unused.
async function withLiveUsage(deps: QuestionBankDeps, rows: QuestionTypeRow[]): Promise<QuestionTypeRow[]> {
  const live = await store.countLiveQuestionsBy(
    deps.models,
    'customTypeId',
    rows.map((r) => r._id),
  );
  return rows.map((r) => ({ ...r, usageCount: Math.max(r.usageCount, live.get(r._id) ?? 0) }));
}

/** The eight core definitions, ACTIVE, for one organization scope; cheap when already there. */
export async function seedSystemTypes(deps: QuestionBankDeps, organizationId: string | null): Promise<void> {
  if ((await store.countSystemTypes(deps.models, organizationId)) >= CORE_TYPES.length) return;
  const createdAt = deps.clock();
  await store.upsertSystemTypes(
    deps.models,
    CORE_TYPES.map((code) => ({
      _id: systemTypeId(organizationId, code),
      organizationId,
      createdById: null,
      code,
      name: code,
      baseType: code,
      isSystem: true,
      status: 'ACTIVE',
      usageCount: 0,
      createdAt,
    })),
  );
}

/** The scope's system definitions and its custom ones (a user's own only, when the actor names one). */
function visibleFilter(scope: ReadScope): TypeFilter {
  return scope.userId === null ? { scope } : { scope, createdById: scope.userId };
}

export async function listTypes(deps: QuestionBankDeps, actor: Actor, query: ListTypesQuery): Promise<TypeView[]> {
  const scope = readScope(actor, query);
  await seedSystemTypes(deps, scope.organizationId);
  const filter = visibleFilter(scope);
  const status = query.status ?? (query.summary ? 'ACTIVE' : undefined);
  if (status) filter.status = status;
  if (query.q) filter.search = literalPattern(query.q);
  const rows = await findTypes(deps.models, filter, TYPE_LIST_CAP);
  if (query.summary) return rows.map((r) => toTypeView(r, true));
  return (await withLiveUsage(deps, rows)).map((r) => toTypeView(r));
}

function assertCustomCodeFree(code: string): void {
  if ((CORE_TYPES as readonly string[]).includes(code)) {
    throw new AppError('QUESTION_TYPE_CODE_TAKEN', `Code ${code} is a system question type`);
  }
}

function codeTaken(err: unknown, code: string): never {
  if (isDuplicateKey(err)) throw new AppError('QUESTION_TYPE_CODE_TAKEN', `Question type code ${code} already exists`);
  throw err;
}

export async function createType(deps: QuestionBankDeps, actor: Actor, input: CreateTypeInput): Promise<TypeView> {
  const scope = writeScope(actor);
  const code = input.code.toUpperCase();
  assertCustomCodeFree(code);
  const row = await store
    .insertType(deps.models, {
      _id: deps.newId(),
      organizationId: scope.organizationId,
      createdById: scope.userId,
      code,
      name: input.name,
      baseType: input.baseType,
      isSystem: false,
      status: input.status ?? 'ACTIVE',
      usageCount: 0,
    })
    .catch((err: unknown) => codeTaken(err, code));
  return toTypeView(row);
}

/**
 * The definition a writer may change: outside the organization or another actor's custom one is
 * 404 (its existence is not the caller's business); a system one for a non-admin is 403.
 */
export async function writableType(deps: QuestionBankDeps, scope: WriteScope, id: string): Promise<QuestionTypeRow> {
  await seedSystemTypes(deps, scope.organizationId);
  const row = await store.findTypeById(deps.models, id);
  const mine = row !== null && row.organizationId === scope.organizationId;
  if (!row || !mine || (!row.isSystem && row.createdById !== scope.userId)) {
    throw new AppError('QUESTION_TYPE_NOT_FOUND', 'Question type not found');
  }
  if (row.isSystem && !scope.isAdmin)
    throw new AppError('FORBIDDEN', 'System question types are changed by ADMIN only');
  return row;
}

function patchSet(row: QuestionTypeRow, input: PatchTypeInput): Partial<QuestionTypeRow> {
  const set: Partial<QuestionTypeRow> = {};
  if (input.name !== undefined) set.name = input.name;
  if (input.status !== undefined) set.status = input.status;
  // System definitions keep their identity: code, baseType and isSystem changes are ignored.
  if (row.isSystem) return set;
  if (input.baseType !== undefined) set.baseType = input.baseType;
  if (input.code !== undefined) set.code = input.code.toUpperCase();
  return set;
}

export async function patchType(
  deps: QuestionBankDeps,
  actor: Actor,
  id: string,
  input: PatchTypeInput,
): Promise<TypeView> {
  const row = await writableType(deps, writeScope(actor), id);
  const set = patchSet(row, input);
  if (set.code !== undefined && set.code !== row.code) assertCustomCodeFree(set.code);
  const updated = await store.updateType(deps.models, id, set).catch((err: unknown) => codeTaken(err, set.code ?? ''));
  if (!updated) throw new AppError('QUESTION_TYPE_NOT_FOUND', 'Question type not found');
  return toTypeView(updated);
}

export interface TypeDeleteResult {
  id: string;
  deleted: boolean;
  archived: boolean;
}

/** System or used definitions are archived; custom unused ones are removed. */
export async function deleteTypeRow(deps: QuestionBankDeps, stored: QuestionTypeRow): Promise<TypeDeleteResult> {
  const [row] = await withLiveUsage(deps, [stored]);
  if (!row || row.isSystem || row.usageCount > 0) {
    await store.updateType(deps.models, stored._id, { status: 'ARCHIVED' });
    return { id: stored._id, deleted: false, archived: true };
  }
  await store.deleteType(deps.models, row._id);
  return { id: row._id, deleted: true, archived: false };
}

export async function deleteType(deps: QuestionBankDeps, actor: Actor, id: string): Promise<TypeDeleteResult> {
  return deleteTypeRow(deps, await writableType(deps, writeScope(actor), id));
}
