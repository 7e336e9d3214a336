// One valid event per catalogued type, and per type the mutations its schema must refuse.
import { buildEvent, type PlatformEvent } from '../../services/kit/src/bus/index.js';
import { EVENT_TYPES } from '../topics.js';

type Data = Record<string, unknown>;
type Mutation = [name: string, mutate: (data: Data) => void];

const now = new Date('2026-11-21T08:00:00.000Z');
const at = now.toISOString();

function ev(type: string, source: string, subject: string, data: Data): PlatformEvent<Data> {
  return buildEvent({ type, source, subject, data }, now, `evt-${type}`);
}

const question = {
  id: 'q-1',
  organizationId: 'org-1',
  content: 'Giá trị của 2 + 2 là bao nhiêu?',
  contentJson: { type: 'doc', content: [] },
  type: 'SINGLE_CHOICE',
  customTypeId: null,
  subjectId: 'math',
  gradeLevel: 12,
  difficulty: 'MEDIUM',
  sourceType: 'MANUAL',
  source: null,
  visibility: 'PRIVATE',
  status: 'PUBLISHED',
  topicId: 'topic-arith',
  chapterId: null,
  currentVersionId: 'qv-3',
  options: [
    { id: 'o-1', label: 'A', content: '3' },
    { id: 'o-2', label: 'B', content: '4' },
  ],
  subItems: [],
  mediaRefs: [{ mediaAssetId: 'm-1', url: '/api/storage/media-assets/m-1/content', mimeType: 'image/png' }],
  formulaRefs: [{ latex: '2+2' }],
  tags: ['số học'],
  createdAt: at,
  updatedAt: at,
};

const jobFacts = { jobId: 'job-1', organizationId: 'org-1', actorId: 'teacher-1', jobKind: 'DOCX_FAST' };
const approval = { approvalKey: 'appr-1', documentId: 'doc-1', questionIds: ['q-1', 'q-2'], examId: null };

export const VALID_EVENTS: Record<string, PlatformEvent<Data>> = {
  [EVENT_TYPES.searchProjectionChanged]: ev(EVENT_TYPES.searchProjectionChanged, 'question-bank', 'q-1', {
    questionId: 'q-1',
    organizationId: 'org-1',
    sourceService: 'question-bank-service',
    entityType: 'QUESTION',
    sourceVersion: 3,
    operation: 'UPSERT',
    document: question,
  }),
  [EVENT_TYPES.docxImportJobRequested]: ev(EVENT_TYPES.docxImportJobRequested, 'document-import', 'job-1', {
    ...jobFacts,
    run: 1,
    fileName: 'de-thi-thu.docx',
    title: 'Đề thi thử',
    storage: { store: 'spool', ref: 'org-1/job-1/run-1.docx', sizeBytes: 48213 },
    autoApproveToQuestionBank: true,
    subjectId: 'math',
    gradeLevel: 12,
  }),
  [EVENT_TYPES.docxImportJobQueued]: ev(EVENT_TYPES.docxImportJobQueued, 'document-import', 'job-1', {
    ...jobFacts,
    status: 'PENDING',
    run: 1,
    fileName: 'de-thi-thu.docx',
    title: null,
    autoApproveToQuestionBank: false,
  }),
  [EVENT_TYPES.docxImportJobStarted]: ev(EVENT_TYPES.docxImportJobStarted, 'document-import', 'job-1', {
    ...jobFacts,
    status: 'PROCESSING',
    run: 1,
  }),
  [EVENT_TYPES.docxImportJobCompleted]: ev(EVENT_TYPES.docxImportJobCompleted, 'document-import', 'job-1', {
    ...jobFacts,
    status: 'COMPLETED',
    run: 1,
    counts: { totalQuestions: 40, parsedQuestions: 40, pendingEquations: 0, pendingImages: 1, warnings: 2, errors: 0 },
    warningCodes: ['FORMULA_DOCX_IMAGE_MATERIALIZE_FAILED'],
    latencyMs: 5120,
  }),
  [EVENT_TYPES.docxImportJobFailed]: ev(EVENT_TYPES.docxImportJobFailed, 'document-import', 'job-1', {
    ...jobFacts,
    status: 'FAILED',
    run: 1,
    error: { code: 'DOCX_IMPORT_PAYLOAD_MISSING', message: 'the spooled upload is gone' },
  }),
  [EVENT_TYPES.docxImportReviewUpdated]: ev(EVENT_TYPES.docxImportReviewUpdated, 'document-import', 'job-1', {
    ...jobFacts,
    status: 'COMPLETED',
    questionCount: 40,
  }),
  [EVENT_TYPES.docxImportApprovalCompleted]: ev(EVENT_TYPES.docxImportApprovalCompleted, 'document-import', 'job-1', {
    ...jobFacts,
    status: 'COMPLETED',
    target: 'EXAM_DRAFT',
    ...approval,
    examId: 'exam-9',
  }),
  [EVENT_TYPES.docxImportAutoApprovalCompleted]: ev(
    EVENT_TYPES.docxImportAutoApprovalCompleted,
    'document-import',
    'job-1',
    { ...jobFacts, status: 'COMPLETED', target: 'QUESTION_BANK', ...approval },
  ),
  [EVENT_TYPES.docxImportAutoApprovalFailed]: ev(EVENT_TYPES.docxImportAutoApprovalFailed, 'document-import', 'job-1', {
    ...jobFacts,
    status: 'COMPLETED',
    target: 'QUESTION_BANK',
    error: { code: 'DEPENDENCY_UNAVAILABLE', message: 'question bank answered 503' },
  }),
  [EVENT_TYPES.identityUserChanged]: ev(EVENT_TYPES.identityUserChanged, 'auth', 'u-1', {
    userId: 'u-1',
    change: 'CREATED',
    user: {
      id: 'u-1',
      accountCode: 'HS000123',
      email: 'an@thpt.edu.vn',
      phone: null,
      fullName: 'Nguyễn Văn An',
      role: 'STUDENT',
      status: 'ACTIVE',
      defaultOrganizationId: 'local',
      memberships: [{ organizationId: 'local', organizationName: 'Local', role: 'STUDENT', status: 'ACTIVE' }],
      createdAt: at,
      updatedAt: at,
    },
  }),
  [EVENT_TYPES.attemptGraded]: ev(EVENT_TYPES.attemptGraded, 'attempt', 'att-1', {
    attemptId: 'att-1',
    organizationId: 'org-1',
    student: { id: 'u-1', fullName: 'Nguyễn Văn An' },
    classroom: { id: 'class-12a1', name: '12A1' },
    exam: { id: 'exam-1', title: 'Kiểm tra 15 phút', subjectId: 'math', gradeLevel: 12 },
    status: 'GRADED',
    submissionSource: 'STUDENT',
    startedAt: at,
    submittedAt: at,
    durationSeconds: 840,
    totalScore: 7.25,
    maxScore: 10,
    scorePercent: 72.5,
    correctCount: 29,
    wrongCount: 11,
    questionCount: 40,
    wrongAnswerTopics: [
      { questionId: 'q-7', topicId: 'topic-log', topic: 'Logarit' },
      { questionId: 'q-9', topicId: 'topic-log', topic: 'Logarit' },
    ],
  }),
  [EVENT_TYPES.analyticsWeakTopicDetected]: ev(EVENT_TYPES.analyticsWeakTopicDetected, 'analytics', 'u-1', {
    studentId: 'u-1',
    organizationId: 'org-1',
    attemptId: 'att-1',
    classroomId: null,
    exam: { id: 'exam-1', title: 'Kiểm tra 15 phút' },
    topics: [
      { topic: 'Logarit', topicId: 'topic-log', wrongCount: 2, attemptCount: 2, accuracy: 0, shouldAlert: true },
    ],
  }),
};

const user = (d: Data) => d.user as Data;
const doc = (d: Data) => d.document as Data;

/** Mutations of `data` that must make each type's example invalid: leaks first, then shape. */
export const INVALID_DATA: Record<string, Mutation[]> = {
  [EVENT_TYPES.searchProjectionChanged]: [
    ['answer keys in the document', (d) => (doc(d).answerKeys = { correctOptionIds: ['o-2'] })],
    ['raw source metadata in the document', (d) => (doc(d).sourceMetadataJson = { file: 'x.docx' })],
    ['isCorrect on an option', (d) => ((doc(d).options as Data[])[0]!.isCorrect = true)],
    ['a DELETE that still carries the document', (d) => (d.operation = 'DELETE')],
    ['an UPSERT without a document', (d) => (d.document = null)],
    ['sourceVersion 0', (d) => (d.sourceVersion = 0)],
  ],
  [EVENT_TYPES.docxImportJobRequested]: [
    ['the uploaded bytes', (d) => ((d.storage as Data).bytes = 'UEsDBBQ=')],
    ['an upload over 50 MB', (d) => ((d.storage as Data).sizeBytes = 52428801)],
    ['no storage reference', (d) => delete d.storage],
  ],
  [EVENT_TYPES.docxImportJobQueued]: [
    ['the payload reference', (d) => (d.payloadRef = '/spool/job-1.docx')],
    ['a status other than PENDING', (d) => (d.status = 'PROCESSING')],
  ],
  [EVENT_TYPES.docxImportJobStarted]: [['no run number', (d) => delete d.run]],
  [EVENT_TYPES.docxImportJobCompleted]: [
    ['the parse body', (d) => (d.parseResult = { questions: [] })],
    ['a negative counter', (d) => ((d.counts as Data).warnings = -1)],
  ],
  [EVENT_TYPES.docxImportJobFailed]: [['an error without a code', (d) => delete (d.error as Data).code]],
  [EVENT_TYPES.docxImportReviewUpdated]: [['the reviewed parse result', (d) => (d.parseResultJson = {})]],
  [EVENT_TYPES.docxImportApprovalCompleted]: [['an unknown target', (d) => (d.target = 'COURSE')]],
  [EVENT_TYPES.docxImportAutoApprovalCompleted]: [['an exam-draft target', (d) => (d.target = 'EXAM_DRAFT')]],
  [EVENT_TYPES.docxImportAutoApprovalFailed]: [['no error', (d) => delete d.error]],
  [EVENT_TYPES.identityUserChanged]: [
    ['a password hash', (d) => (user(d).passwordHash = '$2b$12$abcdefghijklmnopqrstuv')],
    ['a refresh token', (d) => (d.refreshToken = 'eyJhbGciOi')],
    ['an e-mail not lowercased', (d) => (user(d).email = 'An@thpt.edu.vn')],
    ['an unknown role', (d) => (user(d).role = 'ROOT')],
  ],
  [EVENT_TYPES.attemptGraded]: [
    ['the answers', (d) => (d.answers = [{ questionId: 'q-1', selectedOptionIds: ['o-2'] }])],
    ['a wrong-answer entry without a topic', (d) => delete (d.wrongAnswerTopics as Data[])[0]!.topic],
    ['a status other than GRADED', (d) => (d.status = 'IN_PROGRESS')],
  ],
  [EVENT_TYPES.analyticsWeakTopicDetected]: [
    ['no topics', (d) => (d.topics = [])],
    ['a topic that does not alert', (d) => ((d.topics as Data[])[0]!.shouldAlert = false)],
  ],
};

/** Envelope mutations every type must refuse. */
export const INVALID_ENVELOPE: Array<[string, (e: Data) => void]> = [
  ['no id', (e) => delete e.id],
  ['an extra top-level field', (e) => (e.token = 'secret')],
  ['another producer as source', (e) => (e.source = 'gateway')],
  ['specversion 0.3', (e) => (e.specversion = '0.3')],
  ['a time that is not a date-time', (e) => (e.time = 'yesterday')],
  ['a subject that is not the key', (e) => (e.subject = 'someone-else')],
];

export function clone<T>(value: T): T {
  return structuredClone(value);
}
