import Joi from 'joi';
import { CORE_TYPES, QUESTION_STATUSES, TAXONOMY_FIELDS, type TaxonomyField } from '../domain/vocabulary.js';
import { FLAG_VALUES, paging } from './catalog.js';
import { DIFFICULTIES, ID_PATTERN, SOURCE_TYPES, str } from './questions.js';

// The question list's, the search projection's and the detail read's queries.

const id = Joi.string().pattern(ID_PATTERN);
const flag = Joi.string().valid(...FLAG_VALUES);

/** The list filters a query may send (ListQuery's, typed). */
export type ListQuestionsQuery = Partial<Record<TaxonomyField, string>> & {
  page: number;
  limit: number;
  q?: string;
  organizationId?: string;
  allOrgs?: string;
  subjectId?: string;
  gradeLevel?: number;
  difficulty?: string;
  type?: string;
  customTypeId?: string;
  sourceType?: string;
  status?: string;
  includeArchived?: string;
  unclassifiedOnly?: string;
  missingExplanationOnly?: string;
  fidelityStatus?: string;
  sourceMetadataSource?: string;
  createdById?: string;
  sourceImportJobId?: string;
  folderId?: string;
  groupId?: string;
};

const filterKeys = {
  q: str(500)
    .allow('')
    .description(
      'Words matched ignoring Vietnamese diacritics and case over content, source, source file name and tag names; every word must match a whole word except the last, which may be a prefix. Punctuation separates words and is never a pattern; a q without letters or digits matches nothing.',
    ),
  organizationId: id,
  allOrgs: flag,
  subjectId: id,
  gradeLevel: Joi.number().integer().min(1).max(12),
  difficulty: Joi.string().valid(...DIFFICULTIES),
  ...(Object.fromEntries(TAXONOMY_FIELDS.map((f) => [f, id])) as Record<TaxonomyField, Joi.StringSchema>),
  type: Joi.string().valid(...CORE_TYPES),
  customTypeId: id,
  sourceType: Joi.string().valid(...SOURCE_TYPES),
  status: Joi.string().valid(...QUESTION_STATUSES),
  includeArchived: flag.description('List and legacy list hide ARCHIVED unless status or includeArchived=1 asks.'),
  unclassifiedOnly: flag.description('Rows missing gradeId, curriculumNodeId or difficultyLevelId.'),
  missingExplanationOnly: flag,
  fidelityStatus: str(50).description('sourceMetadataJson.fidelityStatus'),
  sourceMetadataSource: str(200).description('sourceMetadataJson.source'),
  createdById: id.description('Narrows the owner scope, never widens it.'),
  sourceImportJobId: id.description('sourceMetadataJson.sourceImportJobId'),
  folderId: id,
  groupId: id,
};

export const listQuestionsQuery = Joi.object<ListQuestionsQuery, true>({ ...paging(), ...filterKeys });

/** The search-projection backfill's query: the list filters, a keyset cursor and a larger limit. */
export type ProjectionQuery = Omit<ListQuestionsQuery, 'page'> & { page?: undefined; cursor?: string };

// Accepted and dropped, whatever it is: the handler never sees it (joi types a dropped member as absent).
const ignored = Joi.any().strip().description('Ignored: keyset paging (see cursor).') as unknown as Joi.StringSchema;

export const projectionQuery = Joi.object<ProjectionQuery, true>({
  ...filterKeys,
  page: ignored,
  cursor: id.description('nextCursor of the previous page (the last id of that page).'),
  limit: Joi.number().integer().min(1).max(500).default(100),
});

/** What a detail read may ask: the editor view, and the read scope. */
export type DetailQuery = { view?: 'editor'; organizationId?: string; allOrgs?: string };

export const detailQuery = Joi.object<DetailQuery, true>({
  view: Joi.string()
    .valid('editor')
    .description(
      'editor: rich content JSON, currentVersion.answerKeysJson/subItemsJson/scoringRuleJson, options with `order`, group passage fields.',
    ),
  organizationId: id,
  allOrgs: flag,
});
