// Pure: the list query's filters as one MongoDB filter (every field is covered by the scope
// index prefix; `q` by the searchTokens index).
import { TAXONOMY_FIELDS } from '../../store/question-models.js';
import { queryTokens } from '../search-text.js';
import { scopeFilter, type ReadScope } from './scope.js';

export interface ListQuery extends Record<string, unknown> {
  page?: unknown;
  limit?: unknown;
  q?: string;
  status?: string;
  includeArchived?: string;
  unclassifiedOnly?: string;
  missingExplanationOnly?: string;
  fidelityStatus?: string;
  sourceMetadataSource?: string;
  sourceImportJobId?: string;
}

const EQUAL = [
  'subjectId',
  'gradeLevel',
  'difficulty',
  ...TAXONOMY_FIELDS,
  'type',
  'customTypeId',
  'sourceType',
  'folderId',
  'groupId',
] as const;

const META = {
  fidelityStatus: 'sourceMetadataJson.fidelityStatus',
  sourceMetadataSource: 'sourceMetadataJson.source',
  sourceImportJobId: 'sourceMetadataJson.sourceImportJobId',
} as const;

// "Unclassified": a classification ref the AI classifier fills is missing.
const CLASSIFICATION = ['gradeId', 'curriculumNodeId', 'difficultyLevelId'] as const;

const truthy = (v: unknown) => v === '1' || v === 'true';

function qFilter(q: string | undefined): Record<string, unknown>[] {
  if (!q) return [];
  const { whole, prefix } = queryTokens(q);
  // A q with no letters or digits (only punctuation) matches nothing rather than everything.
  if (!prefix) return [{ _id: { $in: [] } }];
  const out: Record<string, unknown>[] = [];
  if (whole.length > 0) out.push({ searchTokens: { $all: whole } });
  // prefix is [a-z0-9]+ only: nothing in it can act as a pattern.
  out.push({ searchTokens: { $regex: `^${prefix}` } });
  return out;
}

function statusFilter(query: ListQuery, archivedByDefault: boolean): Record<string, unknown> {
  if (query.status) return { status: query.status };
  if (archivedByDefault || truthy(query.includeArchived)) return {};
  return { status: { $ne: 'ARCHIVED' } };
}

function flagFilters(query: ListQuery): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (truthy(query.unclassifiedOnly)) out.push({ $or: CLASSIFICATION.map((f) => ({ [f]: null })) });
  if (truthy(query.missingExplanationOnly)) out.push({ explanation: { $in: [null, ''] } });
  return out;
}

/** `archivedByDefault`: the projection backfill includes archived rows when `status` is omitted. */
export function listFilter(scope: ReadScope, query: ListQuery, archivedByDefault = false): Record<string, unknown> {
  const filter: Record<string, unknown> = { ...scopeFilter(scope), ...statusFilter(query, archivedByDefault) };
  for (const f of EQUAL) if (query[f] !== undefined) filter[f] = query[f];
  for (const [k, path] of Object.entries(META)) if (query[k] !== undefined) filter[path] = query[k];
  const and = [...qFilter(query.q), ...flagFilters(query)];
  // In $and, so it narrows the owner scope and never replaces it.
  if (query.createdById !== undefined) and.push({ createdById: query.createdById });
  if (and.length > 0) filter.$and = and;
  return filter;
}
