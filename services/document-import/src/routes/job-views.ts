import { counterObject, LIST_META_SCHEMA, ref, type JsonObject } from '../../../kit/src/http/index.js';

/** The job views the routes answer with (summaries, detail, status, draft, approval). */
export const JOB_VIEW_SCHEMAS: JsonObject = {
  ListMeta: LIST_META_SCHEMA,
  ImportQueue: {
    type: 'object',
    description:
      'Present only while PENDING or PROCESSING. Counts cover the whole queue (the workers are shared by every organization).',
    required: ['status', 'waiting', 'active', 'totalPending', 'waitingPosition', 'jobsAhead', 'workerConcurrency'],
    properties: {
      status: { type: 'string', enum: ['WAITING', 'ACTIVE'] },
      waiting: { type: 'integer', minimum: 0 },
      active: { type: 'integer', minimum: 0 },
      totalPending: { type: 'integer', minimum: 0 },
      waitingPosition: {
        type: 'integer',
        minimum: 0,
        description: '1-based among waiting jobs, oldest first; 0 once active.',
      },
      jobsAhead: { type: 'integer', minimum: 0 },
      workerConcurrency: { type: 'integer', minimum: 1 },
    },
  },
  ImportCounters: counterObject([
    'totalQuestions',
    'parsedQuestions',
    'pendingEquations',
    'pendingImages',
    'warnings',
    'errors',
  ]),
  ImportJobSummary: {
    type: 'object',
    description:
      'The summary of lists and stream snapshots (camelCase). Sub-statuses: fileStatus SPOOLED|RELEASED; extractionStatus/parseStatus PENDING|PROCESSING|COMPLETED|FAILED; matchStatus PENDING|COMPLETED|SKIPPED; reviewStatus NOT_READY|PENDING_REVIEW|REVIEWED|APPROVED. The payload reference is never shown.',
    required: [
      'id',
      'jobKind',
      'source',
      'title',
      'questionFileName',
      'fileName',
      'status',
      'fileStatus',
      'extractionStatus',
      'parseStatus',
      'matchStatus',
      'reviewStatus',
      'progress',
      'errorSummary',
      'createdAt',
      'updatedAt',
    ],
    properties: {
      id: { type: 'string' },
      jobKind: { type: 'string', enum: ['QAS', 'DOCX_FAST'] },
      source: { type: 'string', enum: ['UPLOAD', 'STORAGE'] },
      title: { type: ['string', 'null'] },
      questionFileName: { type: 'string' },
      fileName: { type: 'string' },
      status: { type: 'string', enum: ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] },
      fileStatus: { type: 'string' },
      extractionStatus: { type: 'string' },
      parseStatus: { type: 'string' },
      matchStatus: { type: 'string' },
      reviewStatus: { type: 'string' },
      progress: { type: 'number', minimum: 0, maximum: 100 },
      errorSummary: {
        oneOf: [
          { type: 'null' },
          {
            type: 'object',
            required: ['code', 'message'],
            properties: {
              code: { type: 'string' },
              message: { type: 'string' },
              details: {
                type: 'object',
                description: 'DOCX_NO_QUESTIONS_FOUND: what the parser saw.',
                required: ['paragraphs', 'tables', 'firstLines'],
                properties: {
                  paragraphs: {
                    type: 'integer',
                    minimum: 0,
                    description: 'Paragraphs of the document body (outside tables).',
                  },
                  tables: { type: 'integer', minimum: 0, description: 'Tables of the document body.' },
                  firstLines: {
                    type: 'array',
                    maxItems: 5,
                    items: { type: 'string', maxLength: 120 },
                    description:
                      'The first non-empty lines (a table row is one line, its cells joined by ` | `), each cut at 120 characters.',
                  },
                },
              },
            },
            description:
              'Why the job FAILED: DOCX_IMPORT_PAYLOAD_MISSING, a DocxErrorCode (DOCX_NO_QUESTIONS_FOUND: no question found in a valid DOCX), DOCX_IMPORT_PARSE_FAILED, DOCX_WORKER_CRASHED (the parser worker died on each of DOCX_WORKER_MAX_ATTEMPTS attempts at the document: not retried).',
          },
        ],
      },
      organizationId: { type: 'string' },
      createdBy: { type: 'string' },
      run: { type: 'integer', minimum: 1 },
      autoApproveToQuestionBank: { type: 'boolean' },
      subjectId: { type: ['string', 'null'] },
      gradeLevel: { type: ['integer', 'null'] },
      questionStorageKey: { type: ['string', 'null'] },
      counters: ref('schemas', 'ImportCounters'),
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
      queuedAt: { type: 'string', format: 'date-time' },
      startedAt: { type: ['string', 'null'], format: 'date-time' },
      completedAt: { type: ['string', 'null'], format: 'date-time' },
      failedAt: { type: ['string', 'null'], format: 'date-time' },
      reviewedAt: { type: ['string', 'null'], format: 'date-time' },
      queue: ref('schemas', 'ImportQueue'),
    },
  },
  ImportApproval: {
    type: 'object',
    required: ['approvalKey', 'target', 'auto', 'questionIds', 'at'],
    properties: {
      approvalKey: { type: 'string' },
      target: { type: 'string', enum: ['QUESTION_BANK', 'EXAM_DRAFT'] },
      auto: { type: 'boolean' },
      questionIds: { type: 'array', items: { type: 'string' } },
      examId: { type: ['string', 'null'] },
      documentId: { type: ['string', 'null'] },
      result: {},
      at: { type: 'string', format: 'date-time' },
    },
  },
  ImportJobDetail: {
    allOf: [
      ref('schemas', 'ImportJobSummary'),
      {
        type: 'object',
        required: ['packagingJson', 'parseResultJson'],
        properties: {
          packagingJson: {
            type: ['object', 'null'],
            description:
              'For completed fast jobs `docxFastTempDraft`: status MATERIALIZED, token materialized-<job id>, assets [].',
          },
          parseResultJson: {
            type: ['object', 'null'],
            description: 'The QAS output of the last run, or the reviewed payload verbatim when one was saved.',
          },
          approvals: { type: 'array', items: ref('schemas', 'ImportApproval') },
        },
      },
    ],
  },
  ImportJobStatus: {
    allOf: [
      ref('schemas', 'ImportCounters'),
      {
        type: 'object',
        required: ['status'],
        properties: {
          status: { type: 'string', enum: ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] },
          queue: ref('schemas', 'ImportQueue'),
        },
      },
    ],
  },
  TempDraft: {
    type: 'object',
    additionalProperties: false,
    required: ['token', 'jobId', 'expiresAt', 'parseResult', 'assets'],
    properties: {
      token: { type: 'string', pattern: '^materialized-' },
      jobId: { type: 'string' },
      expiresAt: { type: 'string', format: 'date-time' },
      parseResult: { type: ['object', 'null'] },
      assets: { type: 'array', maxItems: 0 },
    },
  },
  ApprovalAnswer: {
    type: 'object',
    additionalProperties: false,
    required: ['approvalKey', 'replayed', 'result'],
    properties: {
      approvalKey: { type: 'string' },
      replayed: { type: 'boolean' },
      result: {
        description:
          'What the question bank (QUESTION_BANK) or the exam service (EXAM_DRAFT) answered, as stored with approval.completed.',
      },
    },
  },
};
