import Joi from 'joi';
import { pagingKeys, trimmedString } from '../../../kit/src/index.js';

const id = Joi.string().pattern(/^[A-Za-z0-9_.:-]{1,100}$/);
const actorId = Joi.string().pattern(/^[A-Za-z0-9_.:@-]{1,128}$/);
// Texts are taken as sent (no trimming), so the lengths here are the lengths openapi.json states.
const text = (max: number) => Joi.string().min(1).max(max).pattern(/\S/);
const name = Joi.string().min(1).max(255);
const gradeLevel = Joi.number().integer().min(1).max(12);
const subjectId = text(100);

/** A document-service key: letters, digits, `._/-`, starting with a letter or digit, never `..`. */
const STORAGE_KEY = /^[A-Za-z0-9](\.?[A-Za-z0-9_/-])*\.?$/;

export const jobIdParams = Joi.object({ id: id.required() });
export const assetParams = Joi.object({ id: id.required(), tempAssetId: Joi.string().min(1).max(2048).required() });

const filters = {
  status: Joi.string().valid('PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'),
  jobKind: Joi.string().valid('QAS', 'DOCX_FAST'),
  source: Joi.string().valid('UPLOAD', 'STORAGE'),
  q: Joi.string().max(200).allow(''),
  createdFrom: Joi.date().iso(),
  createdTo: Joi.date().iso(),
  ...pagingKeys(),
};

export const libraryQuery = Joi.object(filters);
export const listQuery = Joi.object({ ...filters, createdBy: actorId });

// The upload's title is stored trimmed, so its 300-character limit counts the trimmed title.
export const uploadJobFields = Joi.object({ title: trimmedString(0, 300).allow('') });

export const fastJobBody = Joi.object({
  questionStorageKey: Joi.string().max(300).pattern(STORAGE_KEY).required(),
  questionFileName: name,
  fileName: name,
  title: text(300).required(),
  autoApproveToQuestionBank: Joi.boolean().strict().default(false),
  subjectId,
  gradeLevel,
}).or('questionFileName', 'fileName');

export const reviewBody = Joi.object({
  parseResult: Joi.object().unknown(true),
  title: text(300),
  sourceText: Joi.string().max(1_000_000).allow(''),
  docxFastTempDraftToken: Joi.string().min(1).max(200),
}).or('parseResult', 'sourceText', 'docxFastTempDraftToken');

const questionMetadata = Joi.object({
  subjectId,
  gradeLevel,
  tags: Joi.array().items(text(100)).max(50),
});

const examCreate = Joi.object({
  title: text(300).required(),
  subjectId,
  gradeLevel,
  durationMinutes: Joi.number().integer().min(1).max(600),
});

export const approveBody = Joi.object({
  target: Joi.string().valid('QUESTION_BANK', 'EXAM_DRAFT').required(),
  questionMetadata,
  examId: Joi.when('target', { is: 'EXAM_DRAFT', then: id, otherwise: Joi.forbidden() }),
  exam: Joi.when('target', { is: 'EXAM_DRAFT', then: examCreate, otherwise: Joi.forbidden() }),
}).when(Joi.object({ target: 'EXAM_DRAFT' }).unknown(), { then: Joi.object().xor('examId', 'exam') });
