import Joi from 'joi';
import { pagingKeys } from '../../../kit/src/index.js';

const id = Joi.string().pattern(/^[A-Za-z0-9_.:-]{1,100}$/);
const actorId = Joi.string().pattern(/^[A-Za-z0-9_.:@-]{1,128}$/);
const name = Joi.string().trim().min(1).max(255);
const gradeLevel = Joi.number().integer().min(1).max(12);
const subjectId = Joi.string().trim().min(1).max(100);

export const jobIdParams = Joi.object({ id: id.required() });
export const assetParams = Joi.object({ id: id.required(), tempAssetId: Joi.string().min(1).max(2048).required() });

const filters = {
  status: Joi.string().valid('PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'),
  jobKind: Joi.string().valid('QAS', 'DOCX_FAST'),
  source: Joi.string().valid('UPLOAD', 'STORAGE'),
  q: Joi.string().trim().max(200).allow(''),
  createdFrom: Joi.date().iso(),
  createdTo: Joi.date().iso(),
  ...pagingKeys(),
};

export const libraryQuery = Joi.object(filters);
export const listQuery = Joi.object({ ...filters, createdBy: actorId });

export const uploadJobFields = Joi.object({ title: Joi.string().trim().max(300).allow('') });

export const fastJobBody = Joi.object({
  questionStorageKey: Joi.string().min(1).max(1024).required(),
  questionFileName: name,
  fileName: name,
  title: Joi.string().trim().min(1).max(300).required(),
  autoApproveToQuestionBank: Joi.boolean().strict().default(false),
  subjectId,
  gradeLevel,
}).or('questionFileName', 'fileName');

export const reviewBody = Joi.object({
  parseResult: Joi.object().unknown(true),
  title: Joi.string().trim().min(1).max(300),
  sourceText: Joi.string().max(1_000_000),
  docxFastTempDraftToken: Joi.string().min(1).max(200),
}).or('parseResult', 'sourceText', 'docxFastTempDraftToken');

const questionMetadata = Joi.object({
  subjectId,
  gradeLevel,
  tags: Joi.array().items(Joi.string().trim().min(1).max(100)).max(50),
});

const examCreate = Joi.object({
  title: Joi.string().trim().min(1).max(300).required(),
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
