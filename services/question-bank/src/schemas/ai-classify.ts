import Joi from 'joi';
import { DIRECT_FIELDS } from '../domain/ai-classify/fields.js';
import { TAXONOMY_KINDS } from '../store/catalog-models.js';
import { ID_PATTERN } from './questions.js';

export const MAX_CLASSIFY_IDS = 25;
export const MAX_APPLY_ITEMS = 25;
export const MAX_REQUEST_TAXONOMY = 500;

const id = Joi.string().pattern(ID_PATTERN);
/** 1..max characters (code points, as the OpenAPI document counts them) with a non-space one. */
const text = (max: number) =>
  Joi.string()
    .pattern(/\S/)
    .custom((value: string, helpers) =>
      [...value].length > max ? helpers.error('string.max', { limit: max }) : value,
    );
const bool = Joi.boolean().strict();
const unit = Joi.number().strict().min(0).max(1);
const mode = Joi.string().valid('missing', 'all').default('missing');
const field = Joi.string().valid(...DIRECT_FIELDS);
const fieldList = Joi.array().items(field).unique();

const taxonomy = Joi.array()
  .items(
    Joi.object({
      id: id.required(),
      kind: Joi.string()
        .valid(...TAXONOMY_KINDS)
        .required(),
      code: text(200).required(),
      name: text(500).required(),
      numericLevel: Joi.number().strict().integer().min(0).max(1000).allow(null),
      engineDifficulty: text(32).allow(null),
      subjectId: text(200).allow(null),
      gradeId: text(200).allow(null),
      curriculumId: text(200).allow(null),
    }),
  )
  .max(MAX_REQUEST_TAXONOMY);

export const contextBody = Joi.object({
  questionIds: Joi.array().items(id.required()).min(1).max(MAX_CLASSIFY_IDS).required(),
  fields: fieldList.min(1),
  mode,
  overwrite: bool,
  onlyUnclassified: bool.default(false),
  fullText: bool.default(false),
  taxonomy,
});

const fieldValue = Joi.alternatives().try(text(500), Joi.object({ value: text(500).required(), confidence: unit }));

const applyItem = Joi.object({
  questionId: id.required(),
  acceptedFields: fieldList.required(),
  fields: Joi.object(Object.fromEntries(DIRECT_FIELDS.map((f) => [f, fieldValue]))).required(),
  confidence: unit,
});

export const applyBody = Joi.object({
  items: Joi.array().items(applyItem.required()).min(1).max(MAX_APPLY_ITEMS).required(),
  threshold: unit.default(0),
  mode,
  overwrite: bool,
  taxonomy,
});
