import type { FilterQuery } from 'mongoose';
import { AppError, type Actor, type PageParams } from '../../../../kit/src/index.js';
import type { TaxonomyKind, TaxonomyRefRow } from '../../store/catalog-models.js';
import * as store from '../../store/catalog-store.js';
import type { QuestionBankDeps } from '../deps.js';
import { foldText, literalPattern, readScope, writeScope, type WriteScope } from './scope.js';

export interface TaxonomyRefInput {
  id: string;
  kind: TaxonomyKind;
  code: string;
  name: string;
  organizationId?: string | null;
  status?: string;
  numericLevel?: number | null;
  engineDifficulty?: string | null;
  subjectId?: string | null;
  gradeId?: string | null;
  curriculumId?: string | null;
}

export interface UsageCountInput {
  questionId: string;
  organizationId?: string | null;
  examItems: number;
  attemptItems: number;
  answers: number;
}

export interface UserRefInput {
  id: string;
  fullName: string;
  email: string;
  organizationId?: string | null;
}

export interface OrganizationRefInput {
  id: string;
  name: string;
  slug: string;
  organizationId?: string | null;
}

export interface ExamRefInput {
  questionId: string;
  examId: string;
  title: string;
  status: string;
  createdAt: Date;
  organizationId?: string | null;
}

export interface ListTaxonomyQuery {
  kind?: TaxonomyKind;
  status?: string;
  q?: string;
  includeGlobal?: boolean;
  organizationId?: string;
  allOrgs?: boolean;
}

export type TaxonomyView = Omit<TaxonomyRefRow, '_id' | 'searchText'> & { id: string };

export const toTaxonomyView = ({ _id, searchText: _s, ...rest }: TaxonomyRefRow): TaxonomyView => ({
  id: _id,
  ...rest,
});

export async function listTaxonomy(
  deps: QuestionBankDeps,
  actor: Actor,
  query: ListTaxonomyQuery,
  page: PageParams,
): Promise<{ items: TaxonomyView[]; total: number }> {
  const scope = readScope(actor, query);
  const filter: FilterQuery<TaxonomyRefRow> = {};
  if (!scope.allOrgs) {
    const orgs = query.includeGlobal ? [scope.organizationId, null] : [scope.organizationId];
    filter.organizationId = { $in: [...new Set(orgs)] };
  }
  if (query.kind) filter.kind = query.kind;
  if (query.status) filter.status = query.status;
  if (query.q) filter.searchText = literalPattern(foldText(query.q));
  const { rows, total } = await store.findTaxonomy(deps.models, filter, page);
  return { items: rows.map(toTaxonomyView), total };
}

/**
 * Where an item lands: its own `organizationId` (null is global), else the default. Only ADMIN
 * writes another organization's or global rows; a teacher's items stay in their organization.
 */
function targetOrg(scope: WriteScope, given: string | null | undefined, fallback: string): string | null {
  const org = given === undefined ? fallback : given;
  if (org !== scope.organizationId && !scope.isAdmin) {
    throw new AppError('FORBIDDEN', 'Only ADMIN writes read-model rows of another organization or global rows');
  }
  return org;
}

export async function putTaxonomy(deps: QuestionBankDeps, actor: Actor, items: TaxonomyRefInput[]) {
  const scope = writeScope(actor);
  const rows = items.map(({ id, organizationId, ...rest }) => ({
    _id: id,
    ...rest,
    status: rest.status ?? 'ACTIVE',
    numericLevel: rest.numericLevel ?? null,
    engineDifficulty: rest.engineDifficulty ?? null,
    subjectId: rest.subjectId ?? null,
    gradeId: rest.gradeId ?? null,
    curriculumId: rest.curriculumId ?? null,
    searchText: foldText(`${rest.code}\n${rest.name}`),
    organizationId: targetOrg(scope, organizationId, scope.organizationId),
  }));
  return { count: await store.upsertById(deps.models.TaxonomyRef, rows) };
}

export async function putUsageCounts(deps: QuestionBankDeps, actor: Actor, items: UsageCountInput[]) {
  const scope = writeScope(actor);
  const rows = items.map(({ questionId, organizationId, ...counts }) => ({
    _id: questionId,
    ...counts,
    organizationId: targetOrg(scope, organizationId, scope.organizationId),
  }));
  return { count: await store.upsertById(deps.models.UsageCount, rows) };
}

export async function putRelationRefs(
  deps: QuestionBankDeps,
  actor: Actor,
  input: { users?: UserRefInput[]; organizations?: OrganizationRefInput[] },
) {
  const scope = writeScope(actor);
  const users = (input.users ?? []).map(({ id, organizationId, ...rest }) => ({
    _id: id,
    ...rest,
    organizationId: targetOrg(scope, organizationId, scope.organizationId),
  }));
  // An organization's own scope defaults to itself, then to the header.
  const organizations = (input.organizations ?? []).map(({ id, organizationId, ...rest }) => ({
    _id: id,
    ...rest,
    organizationId: targetOrg(scope, organizationId, id),
  }));
  return {
    users: await store.upsertById(deps.models.UserRef, users),
    organizations: await store.upsertById(deps.models.OrganizationRef, organizations),
  };
}

export async function putExamRefs(deps: QuestionBankDeps, actor: Actor, exams: ExamRefInput[]) {
  const scope = writeScope(actor);
  const rows = exams.map(({ organizationId, ...rest }) => ({
    _id: `${rest.examId}|${rest.questionId}`,
    ...rest,
    organizationId: targetOrg(scope, organizationId, scope.organizationId),
  }));
  return { count: await store.upsertById(deps.models.ExamRef, rows) };
}
