import Joi from 'joi';
import { pagingKeys } from '../../../kit/src/index.js';
import { CORE_TYPES, QUESTION_STATUSES, TAXONOMY_FIELDS } from '../store/question-models.js';

export const DIFFICULTIES = ['EASY', 'MEDIUM', 'HARD', 'VERY_HARD'] as const;
export const SOURCE_TYPES = ['MANUAL', 'AI_GENERATED', 'IMPORTED'] as const;
export const VISIBILITIES = ['PRIVATE', 'ORGANIZATION', 'SHARED_LIBRARY', 'PUBLIC'] as const;
export const SCORING_MODES = ['EXACT', 'PARTIAL', 'THPT_TRUE_FALSE_LADDER'] as const;
export const MAX_BULK_IDS = 100;
export const MAX_CONTENT = 50_000;

export const ID_PATTERN = /^[A-Za-z0-9_.:@-]{1,128}$/;
// Length in characters (code points), as the OpenAPI document's maxLength counts them; joi's own
// max counts UTF-16 units, so an emoji would count twice.
const str = (max: number) =>
  Joi.string().custom((value: string, helpers) =>
    [...value].length > max ? helpers.error('string.max', { limit: max }) : value,
  );
const id = Joi.string().pattern(ID_PATTERN);
const nonBlank = /\S/;
// RFC 3986 characters and %HH escapes only: the same rule in joi and in the OpenAPI document.
export const HTTP_URL = /^https?:\/\/([A-Za-z0-9._~:/?#[\]@!$&'()*+,;=-]|%[0-9A-Fa-f]{2})+$/;
export const URI_REFERENCE = /^([A-Za-z0-9._~:/?#[\]@!$&'()*+,;=-]|%[0-9A-Fa-f]{2})+$/;
const nullableId = id.allow(null, '');
const json = Joi.any();
const text = (max: number) => str(max);

const option = Joi.object({
  id: id.optional(),
  label: str(20).pattern(nonBlank),
  content: str(MAX_CONTENT).allow('').required(),
  contentJson: json,
  isCorrect: Joi.boolean().default(false),
});
const mediaRef = Joi.object({
  id: id.optional(),
  mediaAssetId: id,
  url: str(2000).pattern(URI_REFERENCE),
  kind: text(50),
  mimeType: text(100),
  alt: text(1000).allow(''),
  width: Joi.number().integer().min(0).max(100000),
  height: Joi.number().integer().min(0).max(100000),
});
const formulaRef = Joi.object({
  id: id.optional(),
  latex: text(MAX_CONTENT).allow(''),
  html: text(MAX_CONTENT).allow(''),
  mathml: text(MAX_CONTENT).allow(''),
});
const subItem = Joi.object({
  label: Joi.string().valid('A', 'B', 'C', 'D').required(),
  content: str(MAX_CONTENT).allow('').required(),
  correctBoolean: Joi.boolean().required(),
});
const scoringRule = Joi.object({
  mode: Joi.string()
    .valid(...SCORING_MODES)
    .required(),
  maxScore: Joi.number().min(0).max(1000).required(),
  incorrectPenalty: Joi.number().min(0).max(1000),
  minScore: Joi.number().min(-1000).max(1000),
  tolerance: Joi.number().min(0).max(1e9),
});
const answerKeys = Joi.object({
  correctOptionIds: Joi.array().items(id).max(26),
  correctLabels: Joi.array().items(str(20)).max(26),
  acceptedAnswers: Joi.array().items(str(1000)).max(50),
  tolerance: Joi.number().min(0).max(1e9),
}).allow(null);
const subItems = Joi.array().items(subItem).max(4).allow(null);

const taxonomy = Object.fromEntries(TAXONOMY_FIELDS.map((f) => [f, nullableId]));

const fields = {
  content: str(MAX_CONTENT).pattern(nonBlank),
  contentJson: json,
  explanation: str(MAX_CONTENT).allow('', null),
  explanationJson: json,
  type: Joi.string().valid(...CORE_TYPES),
  customTypeId: nullableId,
  subjectId: id,
  gradeLevel: Joi.number().integer().min(1).max(12),
  difficulty: Joi.string().valid(...DIFFICULTIES),
  sourceType: Joi.string().valid(...SOURCE_TYPES),
  source: str(500).allow('', null),
  visibility: Joi.string().valid(...VISIBILITIES),
  status: Joi.string().valid(...QUESTION_STATUSES),
  ...taxonomy,
  sourceUrl: str(2000).pattern(HTTP_URL).allow('', null),
  sourceTeacherId: nullableId,
  folderId: nullableId,
  groupId: nullableId,
  answerKeys,
  answerKeysJson: answerKeys,
  scoringRule: scoringRule.allow(null),
  scoringRuleJson: scoringRule.allow(null),
  subItems,
  subItemsJson: subItems,
  options: Joi.array().items(option).max(26),
  mediaRefs: Joi.array().items(mediaRef).max(100),
  formulaRefs: Joi.array().items(formulaRef).max(200),
  tags: Joi.array().items(str(200).pattern(nonBlank)).max(50),
  sourceMetadataJson: Joi.object().unknown(true).allow(null),
};

// An alias sent with its canonical name: the canonical name wins (the alias is the legacy spelling).
export const createQuestionBody = Joi.object({ ...fields, content: fields.content.required() });
export const patchQuestionBody = Joi.object(fields).min(1);

export const questionIdParams = Joi.object({ id: str(128).required() });

const flag = Joi.string().valid('1', 'true', '0', 'false');

export const listQuestionsQuery = Joi.object({
  ...pagingKeys(),
  q: str(500).allow(''),
  organizationId: id,
  allOrgs: flag,
  subjectId: id,
  gradeLevel: Joi.number().integer().min(1).max(12),
  difficulty: Joi.string().valid(...DIFFICULTIES),
  ...Object.fromEntries(TAXONOMY_FIELDS.map((f) => [f, id])),
  type: Joi.string().valid(...CORE_TYPES),
  customTypeId: id,
  sourceType: Joi.string().valid(...SOURCE_TYPES),
  status: Joi.string().valid(...QUESTION_STATUSES),
  includeArchived: flag,
  unclassifiedOnly: flag,
  missingExplanationOnly: flag,
  fidelityStatus: str(50),
  sourceMetadataSource: str(200),
  createdById: id,
  sourceImportJobId: id,
  folderId: id,
  groupId: id,
});

export const projectionQuery = listQuestionsQuery.keys({
  page: Joi.any().strip(),
  cursor: id,
  limit: Joi.number().integer().min(1).max(500).default(100),
});

export const detailQuery = Joi.object({
  view: Joi.string().valid('editor'),
  organizationId: id,
  allOrgs: flag,
});

export const bulkStatusBody = Joi.object({
  ids: Joi.array().items(id.required()).min(1).max(MAX_BULK_IDS).required(),
  status: Joi.string()
    .valid(...QUESTION_STATUSES)
    .required(),
});
