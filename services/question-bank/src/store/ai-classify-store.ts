// The AI classification's reads of the taxonomy and type read models (raw documents: a curriculum
// node's subjectId/gradeId/curriculumId links are read as stored).
import type { QuestionTypeRow, TaxonomyKind, TaxonomyRefRow } from './catalog-models.js';
import type { QuestionBankModels } from './models.js';

/** A stored taxonomy ref as read raw: curriculum nodes may carry the refs they belong to. */
export type StoredRef = TaxonomyRefRow & {
  subjectId?: string | null;
  gradeId?: string | null;
  curriculumId?: string | null;
};

/** The fields of a type definition the classification resolves against. */
export type TypeDef = Pick<QuestionTypeRow, '_id' | 'code' | 'name' | 'baseType' | 'isSystem' | 'organizationId'>;

// A picker's list, not a page: far above any real family (grades, subjects, curricula, ...).
export const MAX_REFS_PER_QUERY = 5000;

type Filter = Record<string, unknown>;

function activeRefs(m: QuestionBankModels, organizationId: string, filter: Filter): Promise<StoredRef[]> {
  return m.TaxonomyRef.collection
    .find({ ...filter, status: 'ACTIVE', organizationId: { $in: [organizationId, null] } } as never)
    .sort({ kind: 1, code: 1, _id: 1 })
    .limit(MAX_REFS_PER_QUERY)
    .toArray() as unknown as Promise<StoredRef[]>;
}

export const refsOfKinds = (m: QuestionBankModels, organizationId: string, kinds: TaxonomyKind[]) =>
  activeRefs(m, organizationId, { kind: { $in: kinds } });

/** Curriculum nodes linked to any of the subjects (by id or code). */
export const nodesOfSubjects = (m: QuestionBankModels, organizationId: string, subjects: string[]) =>
  activeRefs(m, organizationId, { kind: 'CURRICULUM_NODE', subjectId: { $in: subjects } });

/** Curriculum nodes a classifier named: by id, code or name (case-folded matching happens after). */
export function nodesNamed(m: QuestionBankModels, organizationId: string, values: string[]) {
  if (values.length === 0) return Promise.resolve([] as StoredRef[]);
  const variants = [...new Set(values.flatMap((v) => [v, v.toUpperCase(), v.toLowerCase()]))];
  return activeRefs(m, organizationId, {
    kind: 'CURRICULUM_NODE',
    $or: [{ _id: { $in: values } }, { code: { $in: variants } }, { name: { $in: values } }],
  });
}

/** ACTIVE definitions: the organization's system ones, the actor's custom ones, global system ones. */
export function activeTypes(m: QuestionBankModels, organizationId: string, userId: string): Promise<TypeDef[]> {
  return m.QuestionTypeDefinition.find({
    status: 'ACTIVE',
    $or: [
      { organizationId, isSystem: true },
      { organizationId, isSystem: false, createdById: userId },
      { organizationId: null, isSystem: true },
    ],
  })
    .sort({ isSystem: -1, code: 1, _id: 1 })
    .lean<TypeDef[]>()
    .exec();
}

/**
 * A request's taxonomy additions without those naming another organization's stored ref: an
 * addition only adds a candidate of the writer's organization, never adopts a foreign id.
 */
export async function withoutForeignRefs<T extends { id: string }>(
  m: QuestionBankModels,
  organizationId: string,
  extra: T[],
): Promise<T[]> {
  if (extra.length === 0) return extra;
  const foreign = await m.TaxonomyRef.find(
    { _id: { $in: extra.map((r) => r.id) }, organizationId: { $nin: [organizationId, null] } },
    { _id: 1 },
  )
    .lean<Array<{ _id: string }>>()
    .exec();
  const ids = new Set(foreign.map((r) => r._id));
  return extra.filter((r) => !ids.has(r.id));
}
