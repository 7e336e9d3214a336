// Pure: which parser groups become question-group rows, and each question's grouping. Only shared
// passages (kind PASSAGE, or a kind-less group with text) are rows; PART and SECTION headings stay
// grouping metadata on the question. A group never decides a question's type.
import type { QuestionGroupRow } from '../../store/catalog-models.js';
import type { IngestPlan } from '../../store/ingest-models.js';
import { foldText } from '../catalog/scope.js';
import type { IngestGroup, IngestInput } from './types.js';

const MAX_DEPTH = 16;

export function isPassage(g: IngestGroup): boolean {
  if (g.kind !== undefined) return g.kind.toUpperCase() === 'PASSAGE';
  return (g.content ?? '').trim() !== '';
}

export function passageGroups(input: IngestInput): IngestGroup[] {
  return (input.groups ?? []).filter(isPassage);
}

/** The chain from a question's innermost group outwards (cycle- and depth-safe). */
export function groupPath(groups: Map<string, IngestGroup>, groupId: string | null | undefined): IngestGroup[] {
  const path: IngestGroup[] = [];
  let id = groupId ?? null;
  while (id !== null && path.length < MAX_DEPTH && !path.some((g) => g.group_id === id)) {
    const g = groups.get(id);
    if (!g) break;
    path.push(g);
    id = g.parent_group_id ?? null;
  }
  return path;
}

export interface Grouping {
  /** The passage row the question belongs to, or null. */
  groupId: string | null;
  /** Metadata: the parser's group id and the chain of headings it sits under. */
  meta: Record<string, unknown> | null;
}

export function groupingOf(
  groups: Map<string, IngestGroup>,
  rowIds: Map<string, string>,
  sourceGroupId: string | null | undefined,
): Grouping {
  if (!sourceGroupId) return { groupId: null, meta: null };
  const path = groupPath(groups, sourceGroupId);
  const passage = path.find((g) => rowIds.has(g.group_id));
  const meta = {
    sourceGroupId,
    path: path.map((g) => ({
      groupId: g.group_id,
      kind: g.kind ?? null,
      title: g.title ?? null,
      part: g.part ?? null,
    })),
  };
  return { groupId: passage ? rowIds.get(passage.group_id)! : null, meta };
}

/** Groups repeating a `group_id` (no schema can forbid it): the first one counts. */
export function withUniqueGroups(input: IngestInput): IngestInput {
  if (!input.groups) return input;
  const seen = new Set<string>();
  const groups = input.groups.filter((g) => !seen.has(g.group_id) && seen.add(g.group_id));
  return groups.length === input.groups.length ? input : { ...input, groups };
}

export interface GroupContext {
  ingestId: string;
  organizationId: string;
  createdById: string;
  createdAt: Date;
  source: Record<string, unknown>;
}

export function groupRows(input: IngestInput, plan: IngestPlan, ctx: GroupContext): QuestionGroupRow[] {
  const bySource = new Map((input.groups ?? []).map((g) => [g.group_id, g]));
  return plan.groups.map(({ sourceGroupId, groupId }) => {
    const g = bySource.get(sourceGroupId)!;
    const title = g.title?.trim() || `Passage ${sourceGroupId}`;
    const contentText = g.content ?? '';
    const meta = { ...ctx.source, ingestId: ctx.ingestId, sourceGroupId, kind: g.kind ?? null, part: g.part ?? null };
    const range = { from: g.from ?? null, to: g.to ?? null, parentGroupId: g.parent_group_id || null };
    return {
      _id: groupId,
      organizationId: ctx.organizationId,
      createdById: ctx.createdById,
      title,
      contentText,
      contentJson: null,
      mediaJson: null,
      sourceMetadataJson: JSON.stringify({ ...meta, ...range }),
      searchText: foldText(`${title}\n${contentText}`),
      createdAt: ctx.createdAt,
      updatedAt: ctx.createdAt,
    };
  });
}
