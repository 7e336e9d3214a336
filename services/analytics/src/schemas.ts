import Joi from 'joi';
import { pagingKeys, tolerant, trimmedString } from '../../kit/src/index.js';

// The alphabet the kit allows in actor headers, so ids round-trip through paths and headers.
export const ID_PATTERN = /^[A-Za-z0-9_.:@-]{1,128}$/;
export const MAX_WEAK_TOPICS = 500;
export const LABEL_MAX = 500;

const id = Joi.string().pattern(ID_PATTERN);
const nullableId = id.allow(null);

/** Length in code points, as the OpenAPI document's minLength/maxLength count them. */
function chars(min: number, max: number): Joi.StringSchema {
  return Joi.string().custom((value: string, helpers) => {
    const n = [...value].length;
    if (n < min) return helpers.error('string.min', { limit: min });
    return n > max ? helpers.error('string.max', { limit: max }) : value;
  });
}
// At least one non-space character; the 1..LABEL_MAX bound applies to the trimmed label.
const label = trimmedString(1, LABEL_MAX);
const nullableLabel = chars(0, LABEL_MAX).allow(null, '');
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const dateTime = Joi.string()
  .pattern(DATE_TIME)
  .custom((v: string, helpers) => {
    const t = Date.parse(v);
    return Number.isNaN(t) ? helpers.error('date.base') : new Date(t);
  });
// JSON numbers only: "5" in a body is a type error, not a number.
const count = Joi.number().strict().integer().min(0).max(Number.MAX_SAFE_INTEGER);
// Question counts of one attempt; bounded so the summaries' sums stay exact integers.
export const MAX_QUESTIONS = 100_000;
const questions = count.max(MAX_QUESTIONS);
// Scores within ±1e9: sums and means over many results stay finite and exact enough.
export const SCORE_LIMIT = 1e9;
const number = Joi.number().strict().min(-SCORE_LIMIT).max(SCORE_LIMIT);
const gradeLevel = Joi.number().strict().integer().min(1).max(12).allow(null);

export const attemptIdParams = Joi.object({ attemptId: id.required() });
export const examIdParams = Joi.object({ examId: id.required() });
export const classroomIdParams = Joi.object({ classroomId: id.required() });
export const studentIdParams = Joi.object({ studentId: id.required() });

export const resultsQuery = Joi.object({
  ...pagingKeys(),
  classroomId: id,
  examId: id,
  subjectId: id,
  studentId: id,
  gradeLevel: Joi.number().integer().min(1).max(12),
  topic: label,
  from: dateTime,
  to: dateTime,
});

/**
 * The public ids may also come flat (the contract names them: examId, studentId, classroomId,
 * subjectId, gradeLevel), and the score as the attempt service spells it (totalScore); when both
 * spellings are sent they must agree.
 */
export const SNAPSHOT_SPELLINGS = [
  { path: 'student.id', alias: 'studentId' },
  { path: 'exam.id', alias: 'examId' },
  { path: 'classroom.id', alias: 'classroomId' },
  { path: 'exam.subjectId', alias: 'subjectId' },
  { path: 'exam.gradeLevel', alias: 'gradeLevel' },
  { path: 'score', alias: 'totalScore' },
] as const;

// A tolerant reader: members the schema does not name are dropped, never refused nor stored.
export const snapshotBody = tolerant(
  Joi.object({
    attemptId: id,
    organizationId: nullableId,
    student: Joi.object({ id: id.required(), fullName: nullableLabel, accountCode: nullableLabel }).required(),
    classroom: Joi.object({ id: id.required(), name: nullableLabel }).allow(null),
    exam: Joi.object({
      id: id.required(),
      title: label.required(),
      subjectId: nullableId,
      gradeLevel,
    }).required(),
    score: number.required(),
    maxScore: number.min(0).allow(null),
    scorePercent: number.allow(null),
    correctCount: questions.required(),
    wrongCount: questions.required(),
    questionCount: questions.allow(null),
    durationSeconds: count.required(),
    status: Joi.string()
      .pattern(/^[A-Z][A-Z0-9_]{0,31}$/)
      .required(),
    submissionSource: Joi.string()
      .pattern(/^[A-Z][A-Z0-9_]{0,31}$/)
      .allow(null),
    startedAt: dateTime.allow(null),
    submittedAt: dateTime.required(),
    weakTopics: Joi.array()
      .items(Joi.object({ topic: label.required(), topicId: nullableId, questionId: nullableId }))
      .max(MAX_WEAK_TOPICS)
      .default([]),
  }),
  SNAPSHOT_SPELLINGS,
);

const eventType = Joi.string().pattern(/^[A-Za-z][A-Za-z0-9_.:-]{0,99}$/);
const entity = Joi.string().pattern(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/);

/** The event's public ids may also come nested (`student: { id }`), as result rows spell them. */
export const EVENT_SPELLINGS = [
  { path: 'studentId', alias: 'student.id' },
  { path: 'examId', alias: 'exam.id' },
  { path: 'classroomId', alias: 'classroom.id' },
  { path: 'attemptId', alias: 'attempt.id' },
] as const;

// A tolerant reader like the snapshot; `payload` is the free-form part and is kept whole.
export const eventBody = tolerant(
  Joi.object({
    type: eventType.required(),
    entity: entity.allow(null),
    entityId: nullableId,
    studentId: nullableId,
    examId: nullableId,
    classroomId: nullableId,
    attemptId: nullableId,
    occurredAt: dateTime,
    payload: Joi.object().unknown(true),
  }),
  EVENT_SPELLINGS,
);

export const eventsQuery = Joi.object({
  ...pagingKeys(),
  type: eventType,
  actorId: id,
  entity,
  entityId: id,
  studentId: id,
  examId: id,
  classroomId: id,
  attemptId: id,
  from: dateTime,
  to: dateTime,
});
