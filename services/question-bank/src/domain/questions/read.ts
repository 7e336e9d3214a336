import { type Actor, pageParams } from '../../../../kit/src/core/index.js';
import type { QuestionRow, QuestionVersionRow } from '../../store/question-models.js';
import * as store from '../../store/question-store.js';
import type { QuestionBankDeps } from '../deps.js';
import { hydrateQuestions, type HydrateView } from '../hydrate.js';
import { listFilter, type ListQuery } from './filters.js';
import { searchDocument, SOURCE_SERVICE } from './projection.js';
import { notFound, readScope, scopeFilter, type ScopeQuery } from './scope.js';
import { questionView } from './views.js';

type Item = Record<string, unknown> & { id: string };

function versionView(v: QuestionVersionRow | undefined, editor: boolean): Record<string, unknown> | null {
  if (!v) return null;
  const { _id, ...rest } = v;
  const base = { id: _id, ...rest };
  return editor
    ? { ...base, answerKeysJson: v.answerKeys, subItemsJson: v.subItems, scoringRuleJson: v.scoringRule }
    : base;
}

async function withVersions(deps: QuestionBankDeps, rows: QuestionRow[], editor: boolean): Promise<Item[]> {
  const ids = rows.map((r) => r.currentVersionId).filter((id): id is string => !!id);
  const versions = new Map((await store.findVersions(deps.models, ids)).map((v) => [v._id, v]));
  return rows.map((r) => {
    const view: Item = {
      ...questionView(r),
      currentVersion: versionView(versions.get(r.currentVersionId ?? ''), editor),
    };
    if (editor) view.options = r.options.map((o, order) => ({ ...o, order }));
    return view;
  });
}

export async function listQuestions(
  deps: QuestionBankDeps,
  actor: Actor,
  query: ListQuery & ScopeQuery,
  view: HydrateView = 'list',
) {
  const page = pageParams(query);
  const filter = listFilter(readScope(actor, query), query);
  const { rows, total } = await store.pageQuestions(deps.models, filter, page);
  const items = await hydrateQuestions(deps, await withVersions(deps, rows, false), { view });
  return { items, meta: { page: page.page, limit: page.limit, total } };
}

export async function getQuestion(
  deps: QuestionBankDeps,
  actor: Actor,
  id: string,
  query: ScopeQuery & { view?: string; legacy?: boolean },
) {
  const row = await store.findQuestion(deps.models, { ...scopeFilter(readScope(actor, query)), _id: id });
  if (!row) throw notFound(id);
  const editor = query.view === 'editor';
  const [item] = await withVersions(deps, [row], editor);
  const view: HydrateView = editor ? 'editor' : query.legacy ? 'legacy' : 'detail';
  const [hydrated] = await hydrateQuestions(deps, [item!], { view });
  return hydrated!;
}

/** The backfill: keyset pages in id order, archived included unless `status` narrows it. */
export async function searchProjections(
  deps: QuestionBankDeps,
  actor: Actor,
  query: ListQuery & ScopeQuery & { cursor?: string; limit: number },
) {
  const filter = listFilter(readScope(actor, query), query, true);
  const rows = await store.questionsAfter(deps.models, filter, query.cursor ?? null, query.limit + 1);
  const page = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  const last = page[page.length - 1];
  return {
    sourceService: SOURCE_SERVICE,
    entityType: 'QUESTION',
    documents: page.map((r) => ({ ...searchDocument(r), sourceVersion: r.searchVersion })),
    // The cursor is the last id of the page: keyset paging in id order, stable under inserts.
    nextCursor: hasMore && last ? last._id : null,
    hasMore,
    meta: { limit: query.limit, count: page.length },
  };
}
