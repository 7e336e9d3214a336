import Joi from 'joi';
import { QUESTION_STATUSES } from '../store/question-models.js';
import { createQuestionBody, ID_PATTERN, MAX_CONTENT, SOURCE_TYPES } from './questions.js';

// Length in characters (code points), as the OpenAPI document's maxLength counts them.
const chars = (max: number) =>
  Joi.string().custom((value: string, helpers) =>
    [...value].length > max ? helpers.error('string.max', { limit: max }) : value,
  );
const nonBlank = /\S/;
const previewId = Joi.string().pattern(ID_PATTERN).required();
const provenance = {
  provider: chars(100).pattern(nonBlank),
  model: chars(200).pattern(nonBlank),
};

// The create body of POST /v1/questions, plus the preview and its provenance. The forced fields
// are accepted (a valid value) and overridden; the provenance goes to sourceMetadataJson.aiPreview,
// so sourceMetadataJson itself is not taken here.
export const aiPreviewDraftBody = createQuestionBody.keys({
  previewId,
  ...provenance,
  generationMode: chars(100).pattern(nonBlank),
  sourceMetadata: Joi.object().unknown(true).allow(null),
  status: Joi.string()
    .valid(...QUESTION_STATUSES)
    .strip(),
  sourceType: Joi.string()
    .valid(...SOURCE_TYPES)
    .strip(),
  source: chars(500).allow('', null).strip(),
  sourceMetadataJson: Joi.forbidden(),
});

const step = Joi.alternatives().try(
  chars(MAX_CONTENT).allow(''),
  Joi.object({ title: chars(500).allow(''), content: chars(MAX_CONTENT).allow('').required() }),
);

const solution = Joi.object({
  explanation: chars(MAX_CONTENT).pattern(nonBlank).required(),
  explanationJson: Joi.object().unknown(true).allow(null),
  steps: Joi.array().items(step).max(50),
  answerKeys: Joi.object({
    correctOptionIds: Joi.array().items(Joi.string().pattern(ID_PATTERN)).max(26).unique(),
    correctLabels: Joi.array().items(chars(20).pattern(nonBlank)).max(26).unique(),
    acceptedAnswers: Joi.array().items(chars(1000)).max(50),
    tolerance: Joi.number().min(0).max(1e9),
  }),
  correctBooleans: Joi.object({ A: Joi.boolean(), B: Joi.boolean(), C: Joi.boolean(), D: Joi.boolean() }).min(1),
});

export const aiPreviewSolutionBody = Joi.object({
  questionId: chars(128).pattern(nonBlank).required(),
  previewId,
  ...provenance,
  solution: solution.required(),
});
