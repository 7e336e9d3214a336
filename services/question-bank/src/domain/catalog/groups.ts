import type { Actor, PageParams } from '../../../../kit/src/core/index.js';
import type { QuestionGroupRow } from '../../store/catalog-models.js';
import { groupPage, type GroupFilter } from '../../store/catalog-lists.js';
import * as store from '../../store/catalog-store.js';
import type { QuestionBankDeps } from '../deps.js';
import { foldText, literalPattern, readScope, writeScope } from './scope.js';

export type GroupView = Omit<
  QuestionGroupRow,
  '_id' | 'searchText' | 'contentJson' | 'mediaJson' | 'sourceMetadataJson'
> & {
  id: string;
  contentJson: unknown;
  mediaJson: unknown;
  sourceMetadataJson: unknown;
  _count: { questions: number };
};

export interface CreateGroupInput {
  title: string;
  contentText: string;
  contentJson?: unknown;
  mediaJson?: unknown;
  sourceMetadataJson?: unknown;
}

export interface ListGroupsQuery {
  q?: string;
  organizationId?: string;
  allOrgs?: boolean;
}

function toGroupView(row: QuestionGroupRow, questions: number): GroupView {
  const { _id, searchText: _s, contentJson, mediaJson, sourceMetadataJson, ...rest } = row;
  return {
    id: _id,
    ...rest,
    contentJson: store.decodeJson(contentJson),
    mediaJson: store.decodeJson(mediaJson),
    sourceMetadataJson: store.decodeJson(sourceMetadataJson),
    _count: { questions },
  };
}

/** Organization scope; non-admins with X-User-Id see their own groups, as with questions. */
function listFilter(actor: Actor, query: ListGroupsQuery): GroupFilter {
  const scope = readScope(actor, query);
  const filter: GroupFilter = { scope };
  if (!scope.isAdmin && scope.userId !== null) filter.createdById = scope.userId;
  if (query.q) filter.search = literalPattern(foldText(query.q));
  return filter;
}

export async function listGroups(
  deps: QuestionBankDeps,
  actor: Actor,
  query: ListGroupsQuery,
  page: PageParams,
): Promise<{ items: GroupView[]; total: number }> {
  const { rows, total } = await groupPage(deps.models, listFilter(actor, query), page);
  // One count query for the whole page.
  const counts = await store.countLiveQuestionsBy(
    deps.models,
    'groupId',
    rows.map((r) => r._id),
  );
  return { items: rows.map((r) => toGroupView(r, counts.get(r._id) ?? 0)), total };
}

export async function createGroup(deps: QuestionBankDeps, actor: Actor, input: CreateGroupInput): Promise<GroupView> {
  const scope = writeScope(actor);
  const row = await store.insertGroup(deps.models, {
    _id: deps.newId(),
    organizationId: scope.organizationId,
    createdById: scope.userId,
    title: input.title,
    contentText: input.contentText,
    contentJson: store.encodeJson(input.contentJson),
    mediaJson: store.encodeJson(input.mediaJson),
    sourceMetadataJson: store.encodeJson(input.sourceMetadataJson),
    searchText: foldText(`${input.title}\n${input.contentText}`),
  });
  return toGroupView(row, 0);
}
