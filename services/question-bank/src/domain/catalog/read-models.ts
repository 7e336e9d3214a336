import type { Actor, PageParams } from '../../../../kit/src/core/index.js';
import type { TaxonomyKind, TaxonomyRefRow } from '../../store/catalog-models.js';
import { taxonomyPage, type TaxonomyFilter } from '../../store/catalog-lists.js';
import type { QuestionBankDeps } from '../deps.js';
import { backfillOrganization, byQuestion, itemOrganization, writeOwned } from './read-model-owner.js';
import { foldText, literalPattern, readScope } from './scope.js';

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
  const filter: TaxonomyFilter = { kind: query.kind, status: query.status };
  if (!scope.allOrgs) {
    const orgs = query.includeGlobal ? [scope.organizationId, null] : [scope.organizationId];
    filter.organizationIds = [...new Set(orgs)];
  }
  if (query.q) filter.search = literalPattern(foldText(query.q));
  const { rows, total } = await taxonomyPage(deps.models, filter, page);
  return { items: rows.map(toTaxonomyView), total };
}

/** Taxonomy: the writer's organization, or global rows for the platform ADMIN (no X-Organization-Id). */
export async function putTaxonomy(deps: QuestionBankDeps, actor: Actor, items: TaxonomyRefInput[]) {
  const org = backfillOrganization(actor, { globalAllowed: true });
  const rows = items.map(({ id, organizationId, ...rest }, i) => ({
    _id: id,
    ...rest,
    status: rest.status ?? 'ACTIVE',
    numericLevel: rest.numericLevel ?? null,
    engineDifficulty: rest.engineDifficulty ?? null,
    subjectId: rest.subjectId ?? null,
    gradeId: rest.gradeId ?? null,
    curriculumId: rest.curriculumId ?? null,
    searchText: foldText(`${rest.code}\n${rest.name}`),
    organizationId: itemOrganization(org, organizationId, `items.${i}.organizationId`),
  }));
  const paths = items.map((_, i) => `items.${i}.id`);
  return { count: await writeOwned(deps, 'TaxonomyRef', { rows, paths }) };
}

/** Counts of the writer's own questions only: another organization's question is a 409. */
export async function putUsageCounts(deps: QuestionBankDeps, actor: Actor, items: UsageCountInput[]) {
  const org = backfillOrganization(actor, { globalAllowed: false });
  const rows = items.map(({ questionId, organizationId, ...counts }, i) => ({
    _id: questionId,
    ...counts,
    organizationId: itemOrganization(org, organizationId, `items.${i}.organizationId`),
  }));
  const { own, foreign } = await byQuestion(
    deps,
    org,
    items.map((i) => i.questionId),
  );
  const paths = items.map((_, i) => `items.${i}.questionId`);
  return { count: await writeOwned(deps, 'UsageCount', { rows, paths, repair: own, foreign }) };
}

/** Users of the writer's organization; an organization ref only for X-Organization-Id itself. */
export async function putRelationRefs(
  deps: QuestionBankDeps,
  actor: Actor,
  input: { users?: UserRefInput[]; organizations?: OrganizationRefInput[] },
) {
  const org = backfillOrganization(actor, { globalAllowed: false });
  const users = (input.users ?? []).map(({ id, organizationId, ...rest }, i) => ({
    _id: id,
    ...rest,
    organizationId: itemOrganization(org, organizationId, `users.${i}.organizationId`),
  }));
  const organizations = (input.organizations ?? []).map(({ id, organizationId, ...rest }, i) => {
    itemOrganization(org, id, `organizations.${i}.id`);
    return {
      _id: id,
      ...rest,
      organizationId: itemOrganization(org, organizationId, `organizations.${i}.organizationId`),
    };
  });
  const userPaths = users.map((_, i) => `users.${i}.id`);
  const userCount = await writeOwned(deps, 'UserRef', { rows: users, paths: userPaths });
  // The organization's own row is the writer's by definition: matched by id (repairing a stale owner).
  const repair = new Set(organizations.map((o) => o._id));
  const orgPaths = organizations.map((_, i) => `organizations.${i}.id`);
  return {
    users: userCount,
    organizations: await writeOwned(deps, 'OrganizationRef', { rows: organizations, paths: orgPaths, repair }),
  };
}

/** Exam refs of the writer's own questions only: another organization's question is a 409. */
export async function putExamRefs(deps: QuestionBankDeps, actor: Actor, exams: ExamRefInput[]) {
  const org = backfillOrganization(actor, { globalAllowed: false });
  const rows = exams.map(({ organizationId, ...rest }, i) => ({
    _id: `${rest.examId}|${rest.questionId}`,
    ...rest,
    organizationId: itemOrganization(org, organizationId, `exams.${i}.organizationId`),
  }));
  const { own, foreign } = await byQuestion(
    deps,
    org,
    exams.map((e) => e.questionId),
  );
  const repair = new Set(rows.filter((r) => own.has(r.questionId)).map((r) => r._id));
  const paths = exams.map((_, i) => `exams.${i}.questionId`);
  return { count: await writeOwned(deps, 'ExamRef', { rows, paths, repair, foreign }) };
}
