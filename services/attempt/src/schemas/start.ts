import Joi from 'joi';
import { documented, named, tolerant } from '../../../kit/src/http/index.js';
import type { AccessInput, ExamSnapshot } from '../domain/start-input.js';

// Ids as the actor headers carry them; body numbers and booleans are strict ("5" is not a count).
export const ID_PATTERN = /^[A-Za-z0-9_.:@-]{1,128}$/;
const id = Joi.string().pattern(ID_PATTERN);
const bool = () => Joi.boolean().strict();
const int = (min: number, max: number) => Joi.number().strict().integer().min(min).max(max);
const num = (min: number, max: number) => Joi.number().strict().min(min).max(max);
// The free-form parts of a snapshot (answer keys, sub-items, rich content, media, the group
// passage) are stored as given: a key MongoDB cannot store as a field name (`$…`, dotted, NUL)
// is refused here rather than failing the insert.
const badName = (k: string) => k.startsWith('$') || k.includes('.') || k.includes('\u0000');

function unsafeKey(value: unknown, depth = 0): string | null {
  if (depth > 20) return '(nested too deep)';
  if (typeof value !== 'object' || value === null || value instanceof Date) return null;
  const entries = Array.isArray(value) ? value.map((v) => ['', v] as const) : Object.entries(value);
  for (const [k, v] of entries) {
    if (badName(k)) return k;
    const inner = unsafeKey(v, depth + 1);
    if (inner) return inner;
  }
  return null;
}
const storable = (value: unknown, helpers: Joi.CustomHelpers) => {
  const key = unsafeKey(value);
  return key === null ? value : helpers.message({ custom: `field name ${JSON.stringify(key)} cannot be stored` });
};

const label = Joi.string().max(500).allow('', null);
const when = Joi.date().iso().allow(null);

/** Any value, kept as given (a `Joi.any()` member). */
export type Anything = NonNullable<unknown> | null;
type FreeForm = Record<string, unknown>;

export const examIdParams = Joi.object<{ examId: string }, true>({ examId: id.required() });

// validate() copies the flat examId to exam.id before this runs: the document states either.
const exam = Joi.object<ExamSnapshot, true>({
  id: id.required().description("Required unless the request's flat examId is sent."),
  organizationId: id.required(),
  title: Joi.string().min(1).max(500).required(),
  status: Joi.string().min(1).max(40).required().description('Only PUBLISHED starts (else 409 EXAM_NOT_PUBLISHED).'),
  deliveryMode: Joi.string().valid('ONLINE', 'OFFLINE').default('ONLINE'),
  durationMinutes: int(1, 100_000).allow(null).default(null),
  maxAttempts: int(0, 1000).allow(null).default(null),
  requiresAccessPassword: bool().default(false),
  shuffleQuestions: bool().default(false),
  shuffleOptions: bool().default(false),
  randomizePerAttempt: bool().default(false),
  openTime: when.default(null),
  closeTime: when.default(null),
  showResultMode: Joi.string().valid('IMMEDIATE', 'AFTER_CLOSE', 'MANUAL').default('IMMEDIATE'),
  resultsReleasedAt: when.default(null),
  subjectId: id.allow(null).default(null),
  gradeLevel: int(1, 12).allow(null).default(null),
});

const accessLink = Joi.object<NonNullable<AccessInput['accessLink']>, true>({
  id: id.required(),
  active: bool().default(true),
  maxStudents: int(1, 1_000_000).allow(null).default(null),
});

const access = Joi.object<AccessInput, true>({
  assigned: bool().default(false),
  attemptLimit: int(0, 1000).allow(null).default(null),
  passwordVerified: bool().default(false),
  accessLink: accessLink.allow(null).default(null),
  classroomId: id.allow(null).default(null),
  classroomName: label.default(null),
}).default();

type SnapshotOption = {
  id: string;
  label?: string | null;
  content?: string | null;
  isCorrect?: boolean;
  contentJson?: Anything;
};

const MEMBERS_IGNORED = 'Members not listed are ignored, never stored.';

const option = named(
  'SnapshotOption',
  Joi.object<SnapshotOption, true>({
    id: id.required(),
    label: Joi.string().max(20).allow('', null),
    content: Joi.string().max(20000).allow('', null),
    isCorrect: bool(),
    contentJson: Joi.any().description('Rich content, kept as given (field names MongoDB cannot store: 400).'),
  }).description(MEMBERS_IGNORED),
);

type ScoringRule = {
  mode: string;
  maxScore?: number;
  incorrectPenalty?: number;
  minScore?: number;
  tolerance?: number;
};

const scoringRule = named(
  'ScoringRule',
  Joi.object<ScoringRule, true>({
    mode: Joi.string().min(1).max(60).required().description('EXACT, PARTIAL, THPT_TRUE_FALSE_LADDER (DESIGN.md).'),
    maxScore: num(0, 1000),
    incorrectPenalty: num(0, 1000),
    minScore: num(-1000, 1000),
    tolerance: num(0, 1e9),
  }).description(MEMBERS_IGNORED),
);

const freeForm = Joi.object().unknown(true);

// Snapshots travel by value from the exam service: the members we grade from are checked, the
// ones the student's client renders (rich content, media, formula refs, group passage) are kept
// as given, and any other member is dropped by the tolerant reader (never stored).
/** A question snapshot as validated (a type, so the domain's `QuestionInput` takes it). */
type QuestionSnapshot = {
  id?: string;
  examQuestionId?: string | null;
  questionId: string;
  questionVersionId?: string | null;
  orderIndex?: number;
  score?: number;
  type: string;
  content?: string | null;
  contentText?: string | null;
  options: SnapshotOption[];
  optionOrder?: string[];
  scoringRule?: ScoringRule;
  answerKeys?: FreeForm | null;
  subItems?: FreeForm[] | null;
  topicId?: string | null;
  topicName?: string | null;
  contentJson?: Anything;
  explanation?: string | null;
  explanationJson?: Anything;
  mediaRefs?: FreeForm[] | null;
  formulaRefs?: FreeForm[] | null;
  groupId?: string | null;
  group?: FreeForm | null;
};

const question = Joi.object<QuestionSnapshot, true>({
  id: id,
  examQuestionId: id.allow(null),
  questionId: id.required(),
  questionVersionId: id.allow(null),
  orderIndex: int(0, 100_000),
  score: num(0, 1000),
  type: Joi.string().min(1).max(60).required(),
  content: Joi.string().max(100_000).allow('', null),
  contentText: Joi.string().max(100_000).allow('', null),
  options: Joi.array().items(option).max(50).unique('id').default([]),
  optionOrder: Joi.array().items(id).max(50).unique(),
  scoringRule: scoringRule,
  answerKeys: freeForm.allow(null),
  // null as the question bank's selection sends it for a question without statements.
  subItems: Joi.array().items(freeForm).max(50).allow(null),
  topicId: id.allow(null),
  topicName: label,
  contentJson: Joi.any().description('Rich content, kept as given.'),
  explanation: Joi.string().max(100_000).allow('', null).description("Removed from a student's view."),
  explanationJson: Joi.any().description("Kept as given; removed from a student's view."),
  mediaRefs: Joi.array().items(freeForm).max(200).allow(null),
  formulaRefs: Joi.array().items(freeForm).max(2000).allow(null),
  groupId: id.allow(null),
  group: freeForm.allow(null).description('The group passage, kept as given.'),
})
  .custom(storable)
  .description(
    "A question snapshot in the question bank's selection shape (options with isCorrect, answerKeys, subItems, scoringRule, rich content, media and formula refs, the group passage). A tolerant reader: members not listed are ignored, never stored. answerKeys, subItems[], contentJson, explanationJson, mediaRefs[], formulaRefs[] and group are free-form and kept as given, except field names MongoDB cannot store ($-prefixed, dotted): 400. topicId/topicName are carried into attempt.graded.v1 wrongAnswerTopics.",
  );

/** The start request as validated: the domain's `StartInput`, the flat spelling of exam.id beside it. */
type StartBody = {
  exam: ExamSnapshot;
  examId?: string;
  access: AccessInput;
  questions: QuestionSnapshot[];
  studentInfo: FreeForm | null;
};

/** The exam's id may also come flat (`examId`, as the path names it); both given must agree. */
export const START_SPELLINGS = [{ path: 'exam.id', alias: 'examId' }] as const;

// The exam runtime's snapshot is an internal body whose full shape the contract leaves open: a
// tolerant reader (members not named here are dropped at every depth, never stored).
export const startBody = named(
  'StartRequest',
  documented(
    tolerant(
      Joi.object<StartBody, true>({
        exam: named('StartExam', documented(exam, { required: ['organizationId', 'title', 'status'] }))
          .required()
          .description(
            'The exam runtime snapshot the caller (the exam service) supplies. subjectId and gradeLevel are extensions carried into attempt.graded.v1. A tolerant reader: other members are ignored, never stored.',
          ),
        examId: id.description(
          'Flat spelling of exam.id (stands for it when exam has no id); when both are sent they must be equal, else 400 VALIDATION_ERROR naming examId. exam (with its other members) is still required.',
        ),
        access: named('StartAccess', access).description(
          "What the trusted caller established about this student and exam. passwordVerified, accessLink, classroomId and classroomName are this service's choices (x-decisions). A tolerant reader: other members (here and in accessLink) are ignored, never stored.",
        ),
        questions: Joi.array()
          .items(named('QuestionSnapshotInput', question))
          .max(500)
          .unique('questionId')
          .default([])
          .description('questionId unique (a duplicate is 400); none is 400 EXAM_HAS_NO_QUESTIONS.'),
        studentInfo: freeForm
          .custom(storable)
          .allow(null)
          .default(null)
          .description('Copied onto the attempt; fullName and accountCode go into attempt.graded.v1.'),
      }),
      START_SPELLINGS,
    ),
    { anyOf: [{ required: ['examId'] }, { properties: { exam: { required: ['id'] } } }] },
  ).description(
    'The exam runtime snapshot, read as a tolerant reader (x-decisions): members not named here are ignored at every depth, never stored; named members keep their types and limits.',
  ),
);
