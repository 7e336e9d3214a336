// Pure: the response shapes of a question row.
import type { QuestionRow } from '../../store/question-models.js';

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

// The legacy list: scalars and named refs only (hydration adds the refs and _count).
const LIST_OMITS = [
  'currentVersion',
  'options',
  'mediaRefs',
  'formulaRefs',
  'answerKeys',
  'scoringRule',
  'subItems',
  'contentJson',
  'explanationJson',
  'sourceMetadataJson',
];

export function legacyListItem(item: Record<string, unknown>): Record<string, unknown> {
  const out = { ...item };
  for (const k of LIST_OMITS) delete out[k];
  return out;
}

/** The legacy detail: tags as `{ tag: { name } }` wrappers, as the legacy system answered them. */
export function legacyDetail(item: Record<string, unknown> & { tags?: string[] }): Record<string, unknown> {
  const { mediaRefs: _m, formulaRefs: _f, ...rest } = item;
  return { ...rest, tags: (item.tags ?? []).map((name) => ({ tag: { name } })) };
}
