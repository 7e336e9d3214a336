import Joi from 'joi';
import { documented, named } from '../../../kit/src/http/index.js';
import type { ApplyInput } from '../domain/ai-classify/apply.js';
import type { RequestRef } from '../domain/ai-classify/candidates.js';
import type { ContextInput } from '../domain/ai-classify/context.js';
import { DIRECT_FIELDS, type DirectField } from '../domain/ai-classify/fields.js';
import type { ApplyItem, FieldValue } from '../domain/ai-classify/plan.js';
import { TAXONOMY_KINDS } from '../domain/vocabulary.js';
import { ID_PATTERN } from './questions.js';

export const MAX_CLASSIFY_IDS = 25;
export const MAX_APPLY_ITEMS = 25;
export const MAX_REQUEST_TAXONOMY = 500;

const id = Joi.string().pattern(ID_PATTERN);
/** 1..max characters (code points, as the OpenAPI document counts them) with a non-space one. */
const text = (max: number) =>
  documented(
    Joi.string()
      .pattern(/\S/)
      .custom((value: string, helpers) =>
        [...value].length > max ? helpers.error('string.max', { limit: max }) : value,
      ),
    { minLength: 1, maxLength: max },
  );
const bool = Joi.boolean().strict();
const unit = Joi.number().strict().min(0).max(1);
const MODE_TEXT = '`all` forces overwrite=true.';
const mode = Joi.string().valid('missing', 'all').default('missing').description(MODE_TEXT);
const overwrite = bool.description('Default false; ignored (true) with mode=all.');
const field = named(
  'AiClassifyField',
  Joi.string()
    .valid(...DIRECT_FIELDS)
    .description('The direct fields AI classification reads and writes.'),
);
const fieldList = Joi.array().items(field).unique();

const taxonomy = Joi.array()
  .items(
    named(
      'AiClassifyRequestRef',
      Joi.object<RequestRef, true>({
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
      }).description(
        "A request-supplied candidate: only adds to the stored ACTIVE refs (an id already stored is ignored). subjectId/gradeId/curriculumId link a CURRICULUM_NODE (by the linked ref's id or code).",
      ),
    ),
  )
  .max(MAX_REQUEST_TAXONOMY);

export const contextBody = named(
  'AiClassifyContextRequest',
  Joi.object<ContextInput, true>({
    questionIds: Joi.array()
      .items(id.required())
      .min(1)
      .max(MAX_CLASSIFY_IDS)
      .required()
      .description('At most 25 (more is 400). Duplicates are dropped, first occurrence kept.'),
    fields: fieldList.min(1).description('The fields to classify; default all ten.'),
    mode,
    overwrite,
    onlyUnclassified: bool.default(false),
    fullText: bool.default(false).description('Return content, explanation, options and sub-items untruncated.'),
    taxonomy,
  }),
);

const fieldValue = named(
  'AiClassifyFieldValue',
  Joi.alternatives<string | FieldValue>().try(
    text(500).description("A plain value (id, code or name); its confidence is the item's."),
    Joi.object<FieldValue, true>({ value: text(500).required(), confidence: unit }),
  ),
);

const applyItem = named(
  'AiClassifyApplyItem',
  Joi.object<ApplyItem, true>({
    questionId: id.required(),
    acceptedFields: fieldList.required().description('Only these fields are applied.'),
    fields: Joi.object<ApplyItem['fields'], true>(
      Object.fromEntries(DIRECT_FIELDS.map((f) => [f, fieldValue])) as Record<DirectField, Joi.AlternativesSchema>,
    ).required(),
    confidence: unit.description("Default confidence of the item's plain values."),
  }),
);

export const applyBody = named(
  'AiClassifyApplyRequest',
  Joi.object<ApplyInput, true>({
    items: Joi.array()
      .items(applyItem.required())
      .min(1)
      .max(MAX_APPLY_ITEMS)
      .required()
      .description(
        "At most 25, applied in order; a questionId named twice is classified twice, the second item starting from the first one's write.",
      ),
    threshold: unit.default(0).description('A field whose confidence is below it is not applied.'),
    mode,
    overwrite,
    taxonomy,
  }),
);
