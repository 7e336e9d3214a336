import { AppError, type Actor, type PageParams } from '../../../../kit/src/core/index.js';
import type { FOLDER_VISIBILITIES, QuestionFolderRow } from '../../store/catalog-models.js';
import { folderPage, type FolderFilter } from '../../store/catalog-lists.js';
import * as store from '../../store/catalog-store.js';
import type { QuestionBankDeps } from '../deps.js';
import { readScope, writeScope, type ReadScope, type WriteScope } from './scope.js';

export type FolderVisibility = (typeof FOLDER_VISIBILITIES)[number];
export type FolderView = Omit<QuestionFolderRow, '_id'> & { id: string };

export interface CreateFolderInput {
  name: string;
  parentId?: string | null;
  visibility?: FolderVisibility;
}

export interface PatchFolderInput {
  name?: string;
  /** '' or null clears the parent. */
  parentId?: string | null;
  visibility?: FolderVisibility;
}

// Deeper trees than this are refused rather than walked without end.
const MAX_FOLDER_DEPTH = 64;

export const toFolderView = ({ _id, ...rest }: QuestionFolderRow): FolderView => ({ id: _id, ...rest });

/** Non-admins see their own folders and the organization's non-private ones. */
function canSee(
  folder: QuestionFolderRow,
  scope: { organizationId: string | null; userId: string | null; isAdmin: boolean },
) {
  if (folder.organizationId !== scope.organizationId) return false;
  return scope.isAdmin || folder.visibility !== 'PRIVATE' || folder.createdById === scope.userId;
}

function listFilter(scope: ReadScope): FolderFilter {
  return scope.isAdmin ? { scope } : { scope, visibleTo: { userId: scope.userId } };
}

export async function listFolders(
  deps: QuestionBankDeps,
  actor: Actor,
  query: { organizationId?: string; allOrgs?: boolean },
  page: PageParams,
): Promise<{ items: FolderView[]; total: number }> {
  const scope = readScope(actor, query);
  const { rows, total } = await folderPage(deps.models, listFilter(scope), page);
  return { items: rows.map(toFolderView), total };
}

// An unseen or foreign parent is 404 like any unseen folder; a loop or an over-deep tree is a 409.
function badParent(message: string, code = 'FOLDER_PARENT_CONFLICT'): AppError {
  return new AppError(code, `Invalid parentId: ${message}`, { details: [{ path: 'parentId', message }] });
}

/** The parent must be a folder the writer sees in the same organization, and not the folder or below it. */
async function checkParent(deps: QuestionBankDeps, scope: WriteScope, parentId: string, selfId?: string) {
  let cursor: string | null = parentId;
  for (let depth = 0; cursor !== null; depth += 1) {
    if (cursor === selfId) throw badParent('would make the folder its own ancestor');
    if (depth >= MAX_FOLDER_DEPTH) throw badParent(`the tree would be deeper than ${MAX_FOLDER_DEPTH} levels`);
    const folder: QuestionFolderRow | null = await store.findFolder(deps.models, cursor);
    if (depth === 0 && (!folder || !canSee(folder, scope)))
      throw badParent('no such folder in this organization', 'FOLDER_PARENT_NOT_FOUND');
    cursor = folder?.parentId ?? null;
  }
}

export async function createFolder(
  deps: QuestionBankDeps,
  actor: Actor,
  input: CreateFolderInput,
): Promise<FolderView> {
  const scope = writeScope(actor);
  const parentId = input.parentId || null;
  if (parentId !== null) await checkParent(deps, scope, parentId);
  const row = await store.insertFolder(deps.models, {
    _id: deps.newId(),
    organizationId: scope.organizationId,
    createdById: scope.userId,
    name: input.name,
    parentId,
    visibility: input.visibility ?? 'PRIVATE',
  });
  return toFolderView(row);
}

/** Unseen is 404; seen but another teacher's is 403 (its existence is already known). */
async function writableFolder(deps: QuestionBankDeps, scope: WriteScope, id: string): Promise<QuestionFolderRow> {
  const folder = await store.findFolder(deps.models, id);
  if (!folder || !canSee(folder, scope)) throw new AppError('FOLDER_NOT_FOUND', 'Question folder not found');
  if (!scope.isAdmin && folder.createdById !== scope.userId) {
    throw new AppError('FORBIDDEN', 'Only the owner or an ADMIN may change this folder');
  }
  return folder;
}

export async function patchFolder(
  deps: QuestionBankDeps,
  actor: Actor,
  id: string,
  input: PatchFolderInput,
): Promise<FolderView> {
  const scope = writeScope(actor);
  await writableFolder(deps, scope, id);
  const set: Partial<QuestionFolderRow> = {};
  if (input.name !== undefined) set.name = input.name;
  if (input.visibility !== undefined) set.visibility = input.visibility;
  if (input.parentId !== undefined) set.parentId = input.parentId || null;
  if (set.parentId) await checkParent(deps, scope, set.parentId, id);
  const updated = await store.updateFolder(deps.models, id, set);
  if (!updated) throw new AppError('FOLDER_NOT_FOUND', 'Question folder not found');
  return toFolderView(updated);
}

export async function deleteFolder(
  deps: QuestionBankDeps,
  actor: Actor,
  id: string,
): Promise<{ id: string; deleted: true }> {
  await writableFolder(deps, writeScope(actor), id);
  if (!(await store.folderIsEmpty(deps.models, id))) {
    throw new AppError('FOLDER_NOT_EMPTY', 'Only an empty folder (no child folders, no questions) can be deleted');
  }
  await store.deleteFolder(deps.models, id);
  return { id, deleted: true };
}
