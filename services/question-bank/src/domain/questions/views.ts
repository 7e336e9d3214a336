// Pure: the response shapes of a question row.
import type { QuestionRow } from '../../store/question-models.js';
import { NAMED_REFS } from '../hydrate.js';

export type QuestionView = Omit<
  QuestionRow,
  '_id' | 'searchTokens' | 'searchVersion' | 'removedAt' | 'versionNumber'
> & {
  id: string;
};

export function questionView(row: QuestionRow): QuestionView {
  const { _id, searchTokens: _t, searchVersion: _s, removedAt: _r, versionNumber: _n, ...rest } = row;
  return { id: _id, ...rest };
}

type Item = Record<string, unknown>;

const isScalar = (v: unknown) => v === null || v instanceof Date || typeof v !== 'object';

// JSON members that are null on some rows: never "scalar fields" of the legacy shapes.
// Hydrated members (named refs, group, folder, ...) may be null too: they are refs, not scalars.
const JSON_MEMBERS = new Set([
  'contentJson',
  'explanationJson',
  'answerKeys',
  'scoringRule',
  'subItems',
  'sourceMetadataJson',
  ...Object.values(NAMED_REFS),
  'group',
  'folder',
  'customType',
  'createdBy',
  'organization',
  'currentVersion',
  '_count',
]);

function scalars(item: Item): Item {
  return Object.fromEntries(Object.entries(item).filter(([k, v]) => isScalar(v) && !JSON_MEMBERS.has(k)));
}

function pickOf(value: unknown, keys: readonly string[]): Item | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Item;
  return Object.fromEntries(keys.map((k) => [k, v[k] ?? null]));
}

/**
 * The legacy list item, exactly the contract's members: scalar fields, subject/chapter/topic
 * name refs, customType name and baseType, createdBy fullName and email, organization id, name
 * and slug, and _count.
 */
export function legacyListItem(item: Item): Item {
  return {
    ...scalars(item),
    subject: pickOf(item.subject, ['id', 'name']),
    chapter: pickOf(item.chapter, ['id', 'name']),
    topic: pickOf(item.topic, ['id', 'name']),
    customType: pickOf(item.customType, ['name', 'baseType']),
    createdBy: pickOf(item.createdBy, ['fullName', 'email']),
    organization: pickOf(item.organization, ['id', 'name', 'slug']),
    _count: item._count ?? { examItems: 0, attemptItems: 0, answers: 0 },
  };
}

const DETAIL_REFS = ['group', 'customType', 'createdBy', 'currentVersion'] as const;

/**
 * The legacy detail: scalar fields, group, customType, createdBy, currentVersion, ordered options
 * and tags as `{ tag: { name } }` wrappers (the legacy system's join rows); the editor view keeps
 * the rich content and explanation JSON.
 */
export function legacyDetail(item: Item & { tags?: string[] }, editor = false): Item {
  return {
    ...scalars(item),
    ...(editor ? { contentJson: item.contentJson ?? null, explanationJson: item.explanationJson ?? null } : {}),
    ...Object.fromEntries(DETAIL_REFS.map((k) => [k, item[k] ?? null])),
    options: item.options ?? [],
    tags: (item.tags ?? []).map((name) => ({ tag: { name } })),
  };
}
