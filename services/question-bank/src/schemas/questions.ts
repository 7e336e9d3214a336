import Joi from 'joi';
import { documented, named } from '../../../kit/src/http/index.js';
import {
  CORE_TYPES,
  QUESTION_STATUSES,
  TAXONOMY_FIELDS,
  type CoreType,
  type QuestionStatus,
  type SubItemRow,
  type TaxonomyField,
  ID_PATTERN,
} from '../domain/vocabulary.js';

export const DIFFICULTIES = ['EASY', 'MEDIUM', 'HARD', 'VERY_HARD'] as const;
export const SOURCE_TYPES = ['MANUAL', 'AI_GENERATED', 'IMPORTED'] as const;
export const VISIBILITIES = ['PRIVATE', 'ORGANIZATION', 'SHARED_LIBRARY', 'PUBLIC'] as const;
export const SCORING_MODES = ['EXACT', 'PARTIAL', 'THPT_TRUE_FALSE_LADDER'] as const;
export const MAX_BULK_IDS = 100;
export const MAX_CONTENT = 50_000;

export { ID_PATTERN };
// Length in characters (code points), as the OpenAPI document's maxLength counts them; joi's own
// max counts UTF-16 units, so an emoji would count twice.
// Joi refuses '' unless allowed, so the document form states minLength 1 (an allow('') adds '').
export const str = (max: number) =>
  documented(
    Joi.string().custom((value: string, helpers) =>
      [...value].length > max ? helpers.error('string.max', { limit: max }) : value,
    ),
    { minLength: 1, maxLength: max },
  );
const id = Joi.string().pattern(ID_PATTERN);
const nonBlank = /\S/;
// RFC 3986 characters and %HH escapes only: the same rule in joi and in the OpenAPI document.
export const HTTP_URL = /^https?:\/\/([A-Za-z0-9._~:/?#[\]@!$&'()*+,;=-]|%[0-9A-Fa-f]{2})+$/;
export const URI_REFERENCE = /^([A-Za-z0-9._~:/?#[\]@!$&'()*+,;=-]|%[0-9A-Fa-f]{2})+$/;
const nullableId = id.allow(null, '');
/** Any JSON value (rich content, stored as sent). */
export type JsonValue = string | number | boolean | object | null;
// joi's object typing has no member kind for any(): a JSON value's union maps to alternatives.
const json = Joi.any() as unknown as Joi.AlternativesSchema<JsonValue>;
const text = (max: number) => str(max);

type OptionBody = { id?: string; label?: string; content: string; contentJson?: JsonValue; isCorrect: boolean };
type MediaRefBody = {
  id?: string;
  mediaAssetId?: string;
  url?: string;
  kind?: string;
  mimeType?: string;
  alt?: string;
  width?: number;
  height?: number;
};
type FormulaRefBody = { id?: string; latex?: string; html?: string; mathml?: string };
type ScoringMode = (typeof SCORING_MODES)[number];
type ScoringRuleBody = {
  mode: ScoringMode;
  maxScore: number;
  incorrectPenalty?: number;
  minScore?: number;
  tolerance?: number;
};
type AnswerKeysBody = {
  correctOptionIds?: string[];
  correctLabels?: string[];
  acceptedAnswers?: string[];
  tolerance?: number;
};

const option = named(
  'QOption',
  Joi.object<OptionBody, true>({
    id: id.optional(),
    label: str(20).pattern(nonBlank),
    content: str(MAX_CONTENT).allow('').required(),
    contentJson: json,
    isCorrect: Joi.boolean().default(false),
  }).description(
    'An answer option. Order is the array order; `label` defaults to A, B, C… by position and `id` is generated when absent.',
  ),
);
const mediaRef = named(
  'QMediaRef',
  Joi.object<MediaRefBody, true>({
    id: id.optional(),
    mediaAssetId: id,
    url: str(2000)
      .pattern(URI_REFERENCE)
      .description(
        'A URI reference: RFC 3986 characters and %HH escapes. Its query string is never copied into the search projection.',
      ),
    kind: text(50),
    mimeType: text(100),
    alt: text(1000).allow(''),
    width: Joi.number().integer().min(0).max(100000),
    height: Joi.number().integer().min(0).max(100000),
  }).description('A media reference owned by the document service (no binaries); `id` generated when absent.'),
);
const formulaRef = named(
  'QFormulaRef',
  Joi.object<FormulaRefBody, true>({
    id: id.optional(),
    latex: text(MAX_CONTENT).allow(''),
    html: text(MAX_CONTENT).allow(''),
    mathml: text(MAX_CONTENT).allow(''),
  }).description('A formula reference (latex, html, mathml); `id` generated when absent.'),
);
// Named as the document names it: responses refer to the same shape.
const subItem = named(
  'QSubItem',
  Joi.object<SubItemRow, true>({
    label: Joi.string().valid('A', 'B', 'C', 'D').required(),
    content: str(MAX_CONTENT).allow('').required(),
    correctBoolean: Joi.boolean().required(),
  }),
);
const scoringRule = Joi.object<ScoringRuleBody, true>({
  mode: Joi.string()
    .valid(...SCORING_MODES)
    .required(),
  maxScore: Joi.number().min(0).max(1000).required(),
  incorrectPenalty: Joi.number().min(0).max(1000),
  minScore: Joi.number().min(-1000).max(1000),
  tolerance: Joi.number().min(0).max(1e9),
});
const answerKeys = Joi.object<AnswerKeysBody, true>({
  correctOptionIds: Joi.array().items(id).max(26),
  correctLabels: Joi.array().items(str(20)).max(26),
  acceptedAnswers: Joi.array().items(str(1000)).max(50),
  tolerance: Joi.number().min(0).max(1e9),
})
  .allow(null)
  .description(
    'DESIGN.md: choice questions `{ correctOptionIds, correctLabels }`; short answers `{ acceptedAnswers, tolerance? }`.',
  );
const subItems = Joi.array()
  .items(subItem)
  .max(4)
  .allow(null)
  .description('TRUE_FALSE_GROUP statements A to D, stored in label order.');

const taxonomy = Object.fromEntries(TAXONOMY_FIELDS.map((f) => [f, nullableId])) as Record<
  TaxonomyField,
  Joi.StringSchema
>;

/** A question as a create or a patch sends it (every field optional here; create requires content). */
export type QuestionBody = Partial<Record<TaxonomyField, string | null>> & {
  content?: string;
  contentJson?: JsonValue;
  explanation?: string | null;
  explanationJson?: JsonValue;
  type?: CoreType;
  customTypeId?: string | null;
  subjectId?: string;
  gradeLevel?: number;
  difficulty?: (typeof DIFFICULTIES)[number];
  sourceType?: (typeof SOURCE_TYPES)[number];
  source?: string | null;
  visibility?: (typeof VISIBILITIES)[number];
  status?: QuestionStatus;
  sourceUrl?: string | null;
  sourceTeacherId?: string | null;
  folderId?: string | null;
  groupId?: string | null;
  answerKeys?: AnswerKeysBody | null;
  answerKeysJson?: AnswerKeysBody | null;
  scoringRule?: ScoringRuleBody | null;
  scoringRuleJson?: ScoringRuleBody | null;
  subItems?: SubItemRow[] | null;
  subItemsJson?: SubItemRow[] | null;
  options?: OptionBody[];
  mediaRefs?: MediaRefBody[];
  formulaRefs?: FormulaRefBody[];
  tags?: string[];
  sourceMetadataJson?: Record<string, unknown> | null;
};

const fields = {
  content: str(MAX_CONTENT).pattern(nonBlank),
  contentJson: json.description('Rich content; generated from `content` (one paragraph per line) when omitted.'),
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
  sourceUrl: str(2000)
    .pattern(HTTP_URL)
    .allow('', null)
    .description(
      'An http(s) URL (RFC 3986 characters); empty or null clears it. Its query string is never copied into the search projection.',
    ),
  sourceTeacherId: nullableId,
  folderId: nullableId,
  groupId: nullableId,
  answerKeys: named('QAnswerKeys', answerKeys),
  answerKeysJson: named('QAnswerKeys', answerKeys),
  scoringRule: named('QScoringRule', scoringRule.allow(null)),
  scoringRuleJson: named('QScoringRule', scoringRule.allow(null)),
  subItems,
  subItemsJson: subItems,
  options: Joi.array().items(option).max(26),
  mediaRefs: Joi.array().items(mediaRef).max(100),
  formulaRefs: Joi.array().items(formulaRef).max(200),
  tags: Joi.array()
    .items(str(200).pattern(nonBlank))
    .max(50)
    .description('Tag names; trimmed, the same name twice is stored once.'),
  sourceMetadataJson: Joi.object()
    .unknown(true)
    .allow(null)
    .description(
      'Provenance (sourceFileName or fileName is searched by q; clonedFromQuestionId marks a clone). Never copied into the search projection.',
    ),
};

/** A question's fields with their rules: the create and patch bodies, and the AI preview draft. */
export const QUESTION_FIELDS = fields;

// An alias sent with its canonical name: the canonical name wins (the alias is the legacy spelling).
/** The create body, unnamed: the AI preview draft extends it. */
export const createQuestionBody = named(
  'CreateQuestion',
  Joi.object<QuestionBody, true>({ ...fields, content: fields.content.required() }).description(
    'Only `content` is required. Defaults: type SINGLE_CHOICE, subjectId math, gradeLevel 12, difficulty MEDIUM, sourceType MANUAL, visibility PRIVATE, status DRAFT. A PUBLISHED create must satisfy its base type, else 409 QUESTION_PUBLISH_CONFLICT: SINGLE_CHOICE and TRUE_FALSE at least two options and exactly one correct; MULTIPLE_CHOICE at least two and one or more correct; TRUE_FALSE_GROUP sub-items A to D; SHORT_ANSWER and SHORT_NUMERIC_ANSWER a non-blank accepted answer. The aliases `answerKeysJson`, `scoringRuleJson`, `subItemsJson` are accepted; sent with its canonical name, the canonical name wins.',
  ),
);
export const patchQuestionBody = named(
  'PatchQuestion',
  Joi.object<QuestionBody, true>(fields)
    .min(1)
    .description(
      'Partial: omitted fields keep their values; supplied options, tags, mediaRefs and formulaRefs replace fully; an empty string clears an optional id or text field; contentJson is regenerated from a new content unless given.',
    ),
);

export const questionIdParams = Joi.object<{ id: string }, true>({ id: str(128).required() });

export const bulkStatusBody = named(
  'BulkStatusRequest',
  Joi.object<{ ids: string[]; status: QuestionStatus }, true>({
    ids: Joi.array()
      .items(id.required())
      .min(1)
      .max(MAX_BULK_IDS)
      .required()
      .description('1 to 100 ids as sent (the limit counts the list before deduplication).'),
    status: Joi.string()
      .valid(...QUESTION_STATUSES)
      .required(),
  }),
);
