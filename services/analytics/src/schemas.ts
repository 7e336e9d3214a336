import Joi from 'joi';
import { dateTimeString, documented, named, pagingKeys, tolerant, trimmedString } from '../../kit/src/http/index.js';
import type { EventFilter, EventInput } from './domain/analytics-events.js';
import type { ResultQuery, SnapshotInput } from './domain/results.js';

// The alphabet the kit allows in actor headers, so ids round-trip through paths and headers.
export const ID_PATTERN = /^[A-Za-z0-9_.:@-]{1,128}$/;
export const MAX_WEAK_TOPICS = 500;
export const LABEL_MAX = 500;

const id = Joi.string().pattern(ID_PATTERN);
const nullableId = id.allow(null);

/** Length in code points, as the OpenAPI document's minLength/maxLength count them. */
function chars(min: number, max: number): Joi.StringSchema {
  const schema = Joi.string().custom((value: string, helpers) => {
    const n = [...value].length;
    if (n < min) return helpers.error('string.min', { limit: min });
    return n > max ? helpers.error('string.max', { limit: max }) : value;
  });
  return documented(schema, { ...(min > 0 ? { minLength: min } : {}), maxLength: max });
}
// At least one non-space character; the 1..LABEL_MAX bound applies to the trimmed label.
const label = trimmedString(1, LABEL_MAX);
const nullableLabel = chars(0, LABEL_MAX).allow(null, '');
const dateTime = dateTimeString();
// JSON numbers only: "5" in a body is a type error, not a number.
const count = Joi.number().strict().integer().min(0).max(Number.MAX_SAFE_INTEGER);
// Question counts of one attempt; bounded so the summaries' sums stay exact integers.
export const MAX_QUESTIONS = 100_000;
const questions = count.max(MAX_QUESTIONS);
// Scores within ±1e9: sums and means over many results stay finite and exact enough.
export const SCORE_LIMIT = 1e9;
const number = Joi.number().strict().min(-SCORE_LIMIT).max(SCORE_LIMIT);
const gradeLevel = Joi.number().strict().integer().min(1).max(12).allow(null);

export const attemptIdParams = Joi.object<{ attemptId: string }, true>({ attemptId: id.required() });
export const examIdParams = Joi.object<{ examId: string }, true>({ examId: id.required() });
export const classroomIdParams = Joi.object<{ classroomId: string }, true>({ classroomId: id.required() });
export const studentIdParams = Joi.object<{ studentId: string }, true>({ studentId: id.required() });

/** A list's paging, as `pagingKeys` returns it: clamped, never refused. */
export type Paging = { page: number; limit: number };

/** The results' filters and paging; page and limit are accepted but ignored by the weak topics. */
export const resultsQuery = Joi.object<ResultQuery & Paging, true>({
  classroomId: id.description('Results of this classroom.'),
  examId: id.description('Results of this exam.'),
  subjectId: id.description('Results whose exam has this subject id.'),
  studentId: id.description(
    "Results of this student (an addition to the contract's filters; the student summary uses it).",
  ),
  gradeLevel: Joi.number().integer().min(1).max(12).description('Results whose exam has this grade level.'),
  topic: label.description(
    'Results with at least one weak-topic occurrence whose label (trimmed, exact, case-sensitive) or topicId equals this.',
  ),
  from: dateTime.description('submittedAt >= from (inclusive).'),
  to: dateTime.description('submittedAt <= to (inclusive); from after to matches nothing (an empty page, not a 400).'),
  ...pagingKeys(),
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

type Occurrence = NonNullable<SnapshotInput['weakTopics']>[number];

const occurrence = named(
  'TopicOccurrenceInput',
  Joi.object<Occurrence, true>({
    topic: label.required().description('1..500 characters after trimming (ECMAScript whitespace); stored trimmed.'),
    topicId: nullableId,
    questionId: nullableId,
  }),
);

type ClassroomInput = NonNullable<SnapshotInput['classroom']>;

// A tolerant reader: members the schema does not name are dropped, never refused nor stored.
export const snapshotBody = named(
  'SnapshotRequest',
  tolerant(
    Joi.object<SnapshotInput, true>({
      attemptId: id.description("Optional; when sent it must equal the path's attemptId (400 otherwise)."),
      organizationId: nullableId.description('Defaults to X-Organization-Id, else null.'),
      student: Joi.object<SnapshotInput['student'], true>({
        id: id.required(),
        fullName: nullableLabel,
        accountCode: nullableLabel,
      }).required(),
      classroom: Joi.object<ClassroomInput, true>({ id: id.required(), name: nullableLabel }).allow(null),
      exam: Joi.object<SnapshotInput['exam'], true>({
        id: id.required(),
        title: label.required().description('1..500 characters after trimming.'),
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
        .required()
        .description('e.g. GRADED, SUBMITTED'),
      submissionSource: Joi.string()
        .pattern(/^[A-Z][A-Z0-9_]{0,31}$/)
        .allow(null),
      startedAt: dateTime.allow(null),
      submittedAt: dateTime.required(),
      weakTopics: Joi.array()
        .items(occurrence)
        .max(MAX_WEAK_TOPICS)
        .default([])
        .description('Occurrences (one per wrong answer with a topic); default [].'),
    }),
    SNAPSHOT_SPELLINGS,
  ).description(
    'A tolerant reader (internal body): members not named here are ignored, never refused and never stored; named members keep their types and limits. A member a flat spelling can give (examId, studentId, classroomId, subjectId, gradeLevel) is not required inside its object; one of the two spellings must name it (400 otherwise).',
  ),
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
export const eventBody = named(
  'AnalyticsEventRequest',
  tolerant(
    Joi.object<EventInput, true>({
      type: eventType.required().description('Free-form; the service defines no event types.'),
      entity: entity.allow(null),
      entityId: nullableId,
      studentId: nullableId,
      examId: nullableId,
      classroomId: nullableId,
      attemptId: nullableId,
      occurredAt: dateTime.description('Default: the time of recording.'),
      payload: Joi.object<Record<string, unknown>>()
        .unknown(true)
        .description('Any JSON object up to 16 KiB serialized (400 above); keys are data, stored as JSON text.'),
    }),
    EVENT_SPELLINGS,
  ).description(
    'A tolerant reader (internal body): members not named here are ignored, never refused and never stored; named members keep their types and limits. Unknown members such as organizationId are ignored (the organization comes from X-Organization-Id).',
  ),
);

/** The events' filters (on occurredAt for from/to) and paging. */
export const eventsQuery = Joi.object<Omit<EventFilter, 'organizationId'> & Paging, true>({
  type: eventType.description('Exact type.'),
  actorId: id.description('Exact actor.'),
  entity: entity.description('Exact entity.'),
  entityId: id.description('Exact entity id.'),
  studentId: id,
  examId: id,
  classroomId: id,
  attemptId: id,
  from: dateTime.description('occurredAt >= from.'),
  to: dateTime.description('occurredAt <= to.'),
  ...pagingKeys(),
});
