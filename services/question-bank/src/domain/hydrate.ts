import type {
  OrganizationRefRow,
  QuestionFolderRow,
  QuestionGroupRow,
  QuestionTypeRow,
  TaxonomyRefRow,
  UsageCountRow,
  UserRefRow,
} from '../store/catalog-models.js';
import * as refs from '../store/catalog-store.js';
import type { QuestionRow } from '../store/question-models.js';
import type { QuestionBankDeps } from './deps.js';
import { sameTenant } from './tenancy.js';

export type HydrateView = 'list' | 'detail' | 'editor' | 'legacy';

/** Question field -> hydrated member, for every taxonomy family. */
export const NAMED_REFS = {
  subjectId: 'subject',
  chapterId: 'chapter',
  topicId: 'topic',
  educationLevelId: 'educationLevel',
  gradeId: 'grade',
  curriculumId: 'curriculum',
  curriculumNodeId: 'curriculumNode',
  examTrackId: 'examTrack',
  questionSourceId: 'questionSource',
  difficultyLevelId: 'difficultyLevel',
} as const;
type RefField = keyof typeof NAMED_REFS;
type RefMember = (typeof NAMED_REFS)[RefField];

export interface NamedRef {
  id: string;
  kind: string;
  code: string;
  name: string;
  numericLevel: number | null;
  engineDifficulty: string | null;
}

export interface QuestionCounts {
  examItems: number;
  attemptItems: number;
  answers: number;
}

export type QuestionHydration = Record<RefMember, NamedRef | null> & {
  _count: QuestionCounts;
  createdBy: { id: string; fullName: string; email: string } | null;
  organization: { id: string; name: string; slug: string } | null;
  customType: { id: string; code: string; name: string; baseType: string; status: string } | null;
  group: { id: string; title: string; contentText: string; contentJson: unknown; mediaJson: unknown } | null;
  folder: { id: string; name: string; parentId: string | null; visibility: string } | null;
};

type Source = Partial<QuestionRow> & { id: string };

const ids = (values: Array<string | null | undefined>): string[] => [
  ...new Set(values.filter((v): v is string => typeof v === 'string' && v !== '')),
];

function namedRef(row: TaxonomyRefRow | undefined): NamedRef | null {
  if (!row) return null;
  const { _id, kind, code, name } = row;
  return {
    id: _id,
    kind,
    code,
    name,
    numericLevel: row.numericLevel ?? null,
    engineDifficulty: row.engineDifficulty ?? null,
  };
}

const typeRef = (t: QuestionTypeRow | undefined) =>
  t ? { id: t._id, code: t.code, name: t.name, baseType: t.baseType, status: t.status } : null;

const groupRef = (g: QuestionGroupRow | undefined) =>
  g
    ? {
        id: g._id,
        title: g.title,
        contentText: g.contentText,
        contentJson: refs.decodeJson(g.contentJson),
        mediaJson: refs.decodeJson(g.mediaJson),
      }
    : null;

const folderRef = (f: QuestionFolderRow | undefined) =>
  f ? { id: f._id, name: f.name, parentId: f.parentId, visibility: f.visibility } : null;

/** Every ref of the page in one query per kind (never per row); kinds with no ids make no query. */
async function loadRefs(deps: QuestionBankDeps, rows: Source[]) {
  const m = deps.models;
  const fields = Object.keys(NAMED_REFS) as RefField[];
  const [taxonomy, usage, users, orgs, types, groups, folders] = await Promise.all([
    refs.byIds(m.TaxonomyRef, ids(rows.flatMap((r) => fields.map((f) => r[f])))),
    refs.byIds(m.UsageCount, ids(rows.map((r) => r.id))),
    refs.byIds(m.UserRef, ids(rows.map((r) => r.createdById))),
    refs.byIds(m.OrganizationRef, ids(rows.map((r) => r.organizationId))),
    refs.byIds(m.QuestionTypeDefinition, ids(rows.map((r) => r.customTypeId))),
    refs.byIds(m.QuestionGroup, ids(rows.map((r) => r.groupId))),
    refs.byIds(m.QuestionFolder, ids(rows.map((r) => r.folderId))),
  ]);
  return { taxonomy, usage, users, orgs, types, groups, folders };
}

type Loaded = Awaited<ReturnType<typeof loadRefs>>;

const counts = (u: UsageCountRow | undefined): QuestionCounts => ({
  examItems: u?.examItems ?? 0,
  attemptItems: u?.attemptItems ?? 0,
  answers: u?.answers ?? 0,
});

const userRef = (u: UserRefRow | undefined) => (u ? { id: u._id, fullName: u.fullName, email: u.email } : null);

const orgRef = (o: OrganizationRefRow | undefined) => (o ? { id: o._id, name: o.name, slug: o.slug } : null);

/**
 * The row `key` names, only when it belongs to the question's organization (or is global where
 * that kind has global rows): a stored id of another organization hydrates as absent, never as
 * that organization's data.
 */
function at<T extends { organizationId: string | null }>(
  map: Map<string, T>,
  key: string | null | undefined,
  org: string | null | undefined,
  allowGlobal = false,
): T | undefined {
  const row = key ? map.get(key) : undefined;
  return sameTenant(row, org, allowGlobal) ? row : undefined;
}

function hydrateOne(row: Source, l: Loaded): QuestionHydration {
  const org = row.organizationId;
  const named = Object.fromEntries(
    (Object.entries(NAMED_REFS) as Array<[RefField, RefMember]>).map(([field, member]) => [
      member,
      namedRef(at(l.taxonomy, row[field], org, true)),
    ]),
  ) as Record<RefMember, NamedRef | null>;
  return {
    ...named,
    // Missing projection rows are the legacy placeholders: zero counts.
    _count: counts(at(l.usage, row.id, org)),
    createdBy: userRef(at(l.users, row.createdById, org)),
    organization: orgRef(at(l.orgs, row.organizationId, org)),
    customType: typeRef(at(l.types, row.customTypeId, org, true)),
    group: groupRef(at(l.groups, row.groupId, org)),
    folder: folderRef(at(l.folders, row.folderId, org)),
  };
}

/**
 * Adds `_count`, named taxonomy refs, `createdBy`, `organization`, `customType`, `group` and
 * `folder` to a page of question views, with at most seven queries whatever the page size.
 * The view does not change what is loaded; callers pick the members each view shows.
 */
export async function hydrateQuestions<T extends Source>(
  deps: QuestionBankDeps,
  rows: T[],
  _opts: { view: HydrateView },
): Promise<Array<T & QuestionHydration>> {
  if (rows.length === 0) return [];
  const loaded = await loadRefs(deps, rows);
  return rows.map((row) => ({ ...row, ...hydrateOne(row, loaded) }));
}

/**
 * The ids among `questionIds` that DELETE must archive rather than remove: a usage projection
 * above zero, or a live question of the same organization cloned from it
 * (`sourceMetadataJson.clonedFromQuestionId`). Usage rows count here whatever organization they
 * name (only the question's organization can write them since issue 20; an older stray row can only
 * turn a removal into an archive, which is recoverable, never the other way round).
 */
export async function hasProjectedUsageOrCloneRefs(
  deps: QuestionBankDeps,
  organizationId: string | null,
  questionIds: string[],
): Promise<Set<string>> {
  const wanted = ids(questionIds);
  if (wanted.length === 0) return new Set();
  const [used, cloned] = await Promise.all([
    refs.usedQuestionIds(deps.models, wanted),
    refs.clonedQuestionIds(deps.models, organizationId, wanted),
  ]);
  return new Set([...used, ...cloned]);
}
