import Joi from 'joi';
import { tolerant } from '../../../kit/src/index.js';

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

export const examIdParams = Joi.object({ examId: id.required() });

const exam = Joi.object({
  id: id.required(),
  organizationId: id.required(),
  title: Joi.string().min(1).max(500).required(),
  status: Joi.string().min(1).max(40).required(),
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

const accessLink = Joi.object({
  id: id.required(),
  active: bool().default(true),
  maxStudents: int(1, 1_000_000).allow(null).default(null),
});

const access = Joi.object({
  assigned: bool().default(false),
  attemptLimit: int(0, 1000).allow(null).default(null),
  passwordVerified: bool().default(false),
  accessLink: accessLink.allow(null).default(null),
  classroomId: id.allow(null).default(null),
  classroomName: label.default(null),
}).default();

const option = Joi.object({
  id: id.required(),
  label: Joi.string().max(20).allow('', null),
  content: Joi.string().max(20000).allow('', null),
  isCorrect: bool(),
  contentJson: Joi.any(),
});

const scoringRule = Joi.object({
  mode: Joi.string().min(1).max(60).required(),
  maxScore: num(0, 1000),
  incorrectPenalty: num(0, 1000),
  minScore: num(-1000, 1000),
  tolerance: num(0, 1e9),
});

const freeForm = Joi.object().unknown(true);

// Snapshots travel by value from the exam service: the members we grade from are checked, the
// ones the student's client renders (rich content, media, formula refs, group passage) are kept
// as given, and any other member is dropped by the tolerant reader (never stored).
const question = Joi.object({
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
  contentJson: Joi.any(),
  explanation: Joi.string().max(100_000).allow('', null),
  explanationJson: Joi.any(),
  mediaRefs: Joi.array().items(freeForm).max(200).allow(null),
  formulaRefs: Joi.array().items(freeForm).max(2000).allow(null),
  groupId: id.allow(null),
  group: freeForm.allow(null),
}).custom(storable);

/** The exam's id may also come flat (`examId`, as the path names it); both given must agree. */
export const START_SPELLINGS = [{ path: 'exam.id', alias: 'examId' }] as const;

// The exam runtime's snapshot is an internal body whose full shape the contract leaves open: a
// tolerant reader (members not named here are dropped at every depth, never stored).
export const startBody = tolerant(
  Joi.object({
    exam: exam.required(),
    examId: id,
    access: access,
    questions: Joi.array().items(question).max(500).unique('questionId').default([]),
    studentInfo: freeForm.custom(storable).allow(null).default(null),
  }),
  START_SPELLINGS,
);
