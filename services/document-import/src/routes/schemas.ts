import Joi from 'joi';
import {
  documented,
  documentedAs,
  jsonSchemaOf,
  named,
  pagingKeys,
  trimmedString,
  type JsonObject,
} from '../../../kit/src/http/index.js';
import type { ApproveRequest } from '../domain/deps.js';
import type { FastJobInput } from '../domain/fast-jobs.js';
import type { ListQuery, UploadJobInput } from '../domain/jobs.js';
import type { ReviewBody } from '../domain/review.js';

const ID = /^[A-Za-z0-9_.:-]{1,100}$/;
const id = Joi.string().pattern(ID);
const actorId = Joi.string().pattern(/^[A-Za-z0-9_.:@-]{1,128}$/);
// Texts are taken as sent (no trimming), so the lengths here are the lengths openapi.json states.
const text = (max: number) => Joi.string().min(1).max(max).pattern(/\S/);
const gradeLevel = Joi.number().integer().min(1).max(12);
const subjectId = text(100);

/** A document-service key: letters, digits, `._/-`, starting with a letter or digit, never `..`. */
const STORAGE_KEY = /^[A-Za-z0-9](\.?[A-Za-z0-9_/-])*\.?$/;

/** A DOCX file name: the fast-job route refuses any other with 415 DOCX_INVALID_FILE (its handler checks). */
const docxName = documented(Joi.string().min(1).max(255), { pattern: '\\.[Dd][Oo][Cc][Xx]$' }).description(
  'Must end in .docx (415 DOCX_INVALID_FILE otherwise).',
);

/** A job's id in the path. */
export const jobIdParams = Joi.object<{ id: string }, true>({ id: id.required() });

/** A fast job's id and one of its materialized images in the path. */
export const assetParams = Joi.object<{ id: string; tempAssetId: string }, true>({
  id: id.required(),
  tempAssetId: Joi.string()
    .min(1)
    .max(2048)
    .required()
    .description(
      'A media asset id, media id, go asset id or content URL of a materialized reference in the stored result.',
    ),
});

const NEVER_400 = 'absent or non-numeric takes the default (never a 400).';

/** pagingKeys()' page and limit: their clamp returns integers, so they are typed as the numbers it gives. */
function paging() {
  const { page, limit } = pagingKeys();
  return {
    page: documented(page as Joi.NumberSchema<number>, { type: 'string' }).description(
      `Integer page, default 1, clamped to 1..1000000; ${NEVER_400}`,
    ),
    limit: documented(limit as Joi.NumberSchema<number>, { type: 'string' }).description(
      `Integer page size, default 20, clamped to 1..100; ${NEVER_400}`,
    ),
  };
}

const filters = {
  status: Joi.string().valid('PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'),
  jobKind: Joi.string().valid('QAS', 'DOCX_FAST'),
  source: Joi.string().valid('UPLOAD', 'STORAGE'),
  q: Joi.string().max(200).allow('').description('Case-insensitive substring of the title or file name.'),
  createdFrom: Joi.date().iso(),
  createdTo: Joi.date().iso(),
  ...paging(),
};

/** The teacher library's query: the caller's own jobs always, so no createdBy. */
type LibraryQuery = Omit<ListQuery, 'createdBy'>;

/** The teacher library's filters and page. */
export const libraryQuery = Joi.object<LibraryQuery, true>(filters);
/** The job list's filters and page; an ADMIN may name one creator. */
export const listQuery = Joi.object<ListQuery, true>({
  ...filters,
  createdBy: actorId.description("ADMIN only: one creator's jobs (ignored for other roles, who always see their own)."),
});

/** The upload job's text fields. The title is stored trimmed, so its 300-character limit counts the trimmed title. */
export const uploadJobFields = Joi.object<UploadJobInput, true>({
  title: trimmedString(0, 300)
    .allow('')
    .description(
      'Trimmed (ECMAScript whitespace), then at most 300 characters: the limit counts the stored, trimmed title. Empty (or only spaces) is no title.',
    ),
});

/** A DOCX Fast job: the stored file's key and name, the title, and what to approve it into. */
export const fastJobBody = named(
  'FastJobRequest',
  Joi.object<FastJobInput, true>({
    questionStorageKey: Joi.string()
      .max(300)
      .pattern(STORAGE_KEY)
      .required()
      .description('A document-service storage key (letters, digits, ._/-, never ..).'),
    questionFileName: docxName,
    fileName: docxName,
    title: text(300).required(),
    autoApproveToQuestionBank: Joi.boolean().strict().default(false),
    subjectId,
    gradeLevel,
  }).or('questionFileName', 'fileName'),
);

/** A review: a parse result, a source text to reparse, or a temp-draft acknowledgement (at least one). */
export const reviewBody = named(
  'ReviewRequest',
  Joi.object<ReviewBody, true>({
    parseResult: Joi.object<Record<string, unknown>>().unknown(true).description('Stored verbatim.'),
    title: text(300),
    sourceText: Joi.string()
      .max(1_000_000)
      .allow('')
      .description('Read in linear time whatever it holds (runs of a million spaces included); see x-decisions.'),
    docxFastTempDraftToken: Joi.string().min(1).max(200).description('Only materialized-<job id> (400 otherwise).'),
  }).or('parseResult', 'sourceText', 'docxFastTempDraftToken'),
);

type QuestionMetadata = NonNullable<ApproveRequest['questionMetadata']>;
type ExamCreate = NonNullable<ApproveRequest['exam']>;

const questionMetadata = Joi.object<QuestionMetadata, true>({
  subjectId,
  gradeLevel,
  tags: Joi.array().items(text(100)).max(50),
});

const examCreate = Joi.object<ExamCreate, true>({
  title: text(300).required(),
  subjectId,
  gradeLevel,
  durationMinutes: Joi.number().integer().min(1).max(600),
});

const target = (name: string): JsonObject => ({ properties: { target: { const: name } } });

/** What the `when()` rules below accept, as the document states it: examId xor exam with EXAM_DRAFT only. */
const APPROVE_FORM: JsonObject = {
  type: 'object',
  additionalProperties: false,
  required: ['target'],
  properties: {
    target: { type: 'string', enum: ['QUESTION_BANK', 'EXAM_DRAFT'] },
    questionMetadata: jsonSchemaOf(questionMetadata),
    examId: { type: 'string', pattern: ID.source },
    exam: jsonSchemaOf(examCreate),
  },
  oneOf: [
    { ...target('QUESTION_BANK'), not: { anyOf: [{ required: ['examId'] }, { required: ['exam'] }] } },
    { ...target('EXAM_DRAFT'), required: ['examId'], not: { required: ['exam'] } },
    { ...target('EXAM_DRAFT'), required: ['exam'], not: { required: ['examId'] } },
  ],
};

/** An approval into the question bank, or into an exam draft (an existing examId xor a new exam). */
export const approveBody = named(
  'ApproveRequest',
  documentedAs(
    Joi.object<ApproveRequest, true>({
      target: Joi.string().valid('QUESTION_BANK', 'EXAM_DRAFT').required(),
      questionMetadata,
      examId: id.when('target', { is: 'EXAM_DRAFT', otherwise: Joi.forbidden() }),
      exam: examCreate.when('target', { is: 'EXAM_DRAFT', otherwise: Joi.forbidden() }),
    }).when(Joi.object({ target: 'EXAM_DRAFT' }).unknown(), { then: Joi.object().xor('examId', 'exam') }),
    APPROVE_FORM,
  ),
);
