// What a question may point at: rows of the writer's organization only. A passage group, folder or
// type definition must exist there (unknown and another organization's are the same 404, so the
// answer says nothing about other organizations); a taxonomy id may be unknown (the read model is
// filled later by backfills) but never another organization's ref.
import { AppError } from '../../../../kit/src/core/index.js';
import { MSG } from '../../messages.js';
import * as catalog from '../../store/catalog-store.js';
import { TAXONOMY_FIELDS } from '../../store/question-models.js';
import * as store from '../../store/question-store.js';
import type { QuestionBankDeps } from '../deps.js';
import { sameTenant } from '../tenancy.js';
import type { Writer } from './scope.js';

const TAXONOMY_KEYS = ['subjectId', ...TAXONOMY_FIELDS] as const;

export interface RefInput {
  folderId?: unknown;
  groupId?: unknown;
  customTypeId?: unknown;
  [field: string]: unknown;
}

const given = (v: unknown): v is string => typeof v === 'string' && v !== '';

const notFound = (code: string, message: string, path: string, value: string) =>
  new AppError(code, message, { details: [{ path, message: `${value} is not in this organization` }] });

async function assertGroup(deps: QuestionBankDeps, w: Writer, groupId: string) {
  const owners = await catalog.ownersOf(deps.models.QuestionGroup, [groupId]);
  if (owners.get(groupId) === w.organizationId) return;
  throw notFound('QUESTION_GROUP_NOT_FOUND', 'Question group not found in this organization', 'groupId', groupId);
}

/** A type definition of the writer's organization (or a global system one): system, or the writer's own unless ADMIN. */
async function assertType(deps: QuestionBankDeps, w: Writer, typeId: string) {
  const t = await catalog.findTypeById(deps.models, typeId);
  const usable = t !== null && sameTenant(t, w.organizationId, t.isSystem);
  if (usable && (t.isSystem || w.role === 'ADMIN' || t.createdById === w.userId)) return;
  throw notFound('QUESTION_TYPE_NOT_FOUND', 'Question type not found in this organization', 'customTypeId', typeId);
}

async function assertTaxonomy(deps: QuestionBankDeps, w: Writer, input: RefInput) {
  const named = TAXONOMY_KEYS.filter((f) => given(input[f]));
  const owners = await catalog.ownersOf(
    deps.models.TaxonomyRef,
    named.map((f) => input[f] as string),
  );
  const foreign = named.filter((f) => {
    const id = input[f] as string;
    return owners.has(id) && !sameTenant({ organizationId: owners.get(id) ?? null }, w.organizationId, true);
  });
  if (foreign.length === 0) return;
  throw new AppError('TAXONOMY_REF_NOT_FOUND', 'Taxonomy reference not found in this organization', {
    details: foreign.map((f) => ({ path: f, message: `${String(input[f])} is not in this organization` })),
  });
}

/** Every reference the input names (an omitted or cleared one is not checked); 404 on the first bad kind. */
export async function assertOwnRefs(deps: QuestionBankDeps, w: Writer, input: RefInput): Promise<void> {
  if (given(input.folderId) && !(await store.folderVisible(deps.models, input.folderId, w)))
    throw new AppError('FOLDER_NOT_FOUND', MSG.folderNotFound, { details: { folderId: input.folderId } });
  if (given(input.groupId)) await assertGroup(deps, w, input.groupId);
  if (given(input.customTypeId)) await assertType(deps, w, input.customTypeId);
  await assertTaxonomy(deps, w, input);
}
