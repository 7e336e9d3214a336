import {
  actorHeader,
  INTERNAL_TOKEN_SCHEME,
  LIST_META_SCHEMA,
  SHARED_RESPONSES,
  errorResponse,
  openApiDocument,
  type DocumentBase,
  type JsonObject,
} from '../../kit/src/index.js';
import { RESPONSE_SCHEMAS } from './response-schemas.js';
import { analyticsRoutes } from './routes.js';

export const SERVICE_NAME = 'analytics';
export const SERVICE_VERSION = '0.1.0';

/** What the analytics document says beside its routes: the service, its rules, the response shapes. */
const BASE: DocumentBase = {
  kit: { service: SERVICE_NAME },
  info: {
    title: 'edu-platform analytics service',
    version: SERVICE_VERSION,
    description:
      "Result projections (from PUT snapshots and attempt.graded.v1), filtered result lists, weak topics, summaries per exam, classroom and student, and service-local analytics events (seed 000). It never reads another service's store. Every shape and every choice the contract leaves open (x-decisions).",
  },
  servers: [{ url: 'http://127.0.0.1:4003' }],
  'x-decisions': [
    "Tenancy of reads: a request without X-User-Id is a platform service (it holds X-Internal-Token) and reads what it names. A user (X-User-Id) reads inside an organization only: without X-Organization-Id it is 403; a TEACHER or ADMIN (the role within that organization, as the gateway sends it) reads the organization's results, weak topics, summaries and events; a STUDENT only their own results (a studentId naming someone else is 403) and the events they recorded; a PARENT or a user without a role is refused results (403): the service holds no parent-student links.",
    'Results list wrapper: the platform list envelope data: { items, meta: { page, limit, total, totalPages } }; page default 1, limit default 20, both clamped (limit to 1..100), never a 400.',
    "Order: results newest first by submittedAt, ties by attemptId; 'the first 100 matching results' for weak topics and summaries are the newest 100 in that order.",
    'Result row: attemptId, organizationId, student { id, fullName, accountCode }, classroom { id, name } or null, exam { id, title, subjectId, gradeLevel }, score, maxScore, scorePercent, correctCount, wrongCount, questionCount, durationSeconds, status, submissionSource, startedAt, submittedAt, weakTopics, createdAt, updatedAt.',
    "weakTopics inside a row: an array of occurrences { topic, topicId, questionId }, one per wrong answer with a topic; the topic label field is `topic`. Occurrences group by the trimmed label (exact, case-sensitive); a group's topicId is that of its newest occurrence naming one.",
    'Weak-topic formula as the contract states it: each occurrence adds 1 to wrongCount and to attemptCount, so accuracy = max(0, 1 - wrongCount/attemptCount) is 0 for every listed topic and shouldAlert is true for every listed topic. Kept literal (a result row lists only the topics of wrong answers; no correct-answer counts reach this service).',
    "Filters: classroomId, examId, subjectId, gradeLevel, topic, from, to as the contract lists, plus studentId; topic matches an occurrence's label or topicId exactly; from/to bound submittedAt inclusively; from after to is an empty page. Malformed values (bad id alphabet, gradeLevel outside 1..12, non-ISO timestamps) are 400 VALIDATION_ERROR.",
    "Organization: the result's organizationId comes from the body, else X-Organization-Id, else null. Reads (results, weak topics, summaries, events) are limited to X-Organization-Id when it is sent (the gateway table requires one), all organizations otherwise. The header is an actor header: role checks belong to gateway adapters, so no role is required here.",
    'PUT snapshot: the body is the result-row fields and the public ids. Numbers must be JSON numbers. 200 with the stored row whether it was created or replaced. The PUT does not evaluate alerts.',
    "Tolerant reader (internal bodies: the PUT snapshot and the events POST): a member the service does not use is ignored, never refused and never stored; the members it uses keep their types and limits (400 otherwise). The contract's spellings are all accepted: the snapshot's public ids flat (studentId, examId, classroomId, subjectId, gradeLevel) or nested (student.id, exam.id, classroom.id, exam.subjectId, exam.gradeLevel), and score as totalScore; an event's ids flat or nested (student.id, exam.id, classroom.id, attempt.id). A flat id stands for its nested object when that is absent (exam still needs its title); when both spellings are sent they must be equal, else 400 VALIDATION_ERROR naming the flat (or nested) member. Read routes keep refusing unknown query parameters.",
    'Summaries: attemptCount, averageScore (mean of score, unrounded, null with no results), correctCount and wrongCount sums over all matching results; weakTopics from the newest 100. An unknown id is 200 with zeros, not 404.',
    'Analytics events: body { type, entity?, entityId?, studentId?, examId?, classroomId?, attemptId?, occurredAt?, payload? }; record { id, type, actorId, actorRole, organizationId, entity, entityId, studentId, examId, classroomId, attemptId, payload, occurredAt, createdAt }; 201 on record; optional Idempotency-Key; payload at most 16 KiB of JSON; query filters type, actorId, entity, entityId, studentId, examId, classroomId, attemptId, from, to (on occurredAt) and paging.',
    'Events in: attempt.graded.v1 (consumer group `analytics`, from the beginning, idempotent by event id) upserts the snapshot: score = totalScore, weakTopics = wrongAnswerTopics. An event failing its JSON Schema goes to attempt.graded.v1.dlq at once; other failures retry (kit policy) and then go there.',
    "Events out: analytics.weak-topic-detected.v1 (key studentId) through the kit outbox. After each graded attempt the student's weak topics over their newest 100 results (same organization) are derived; topics with shouldAlert that were not alerting at the previous evaluation are announced once, in one event listing them. A per-student (per organization) alert-state document remembers the alerting labels; it moves by compare-and-set on a version, and the event's outbox stamp rides in that same single-document write, so the state and its event are atomic without transactions. The event id is '<organizationId>:<studentId>:<version>'. A redelivered or replayed graded event recomputes against the moved state and announces nothing again; a topic that leaves the 100-result window leaves the state and may cross (and be announced) again later.",
    "Alerts use the student's results whatever their source, so results backfilled by PUT can make topics cross at the student's next graded attempt (the event then lists them).",
    'Limits on a PUT snapshot: score, maxScore and scorePercent within ±1e9; correctCount, wrongCount and questionCount at most 100,000 (so summary sums stay exact); at most 500 weakTopics occurrences; labels (topic, exam title) 1..500 characters after trimming; the body at most 1 MB (413 above).',
    'Config: PORT 4003, MONGODB_DB edu_analytics, OUTBOX_PUBLISHER none|kafka, ANALYTICS_CONSUMER on|off (on by default when KAFKA_BROKERS is set), ANALYTICS_CONSUMER_GROUP (default analytics).',
  ],
  components: {
    securitySchemes: { internalToken: INTERNAL_TOKEN_SCHEME },
    parameters: {
      UserHeader: actorHeader('X-User-Id', 'The actor (X-Actor-Id is the same); optional.'),
      RoleHeader: actorHeader(
        'X-User-Role',
        'ADMIN, TEACHER, STUDENT or PARENT, any case (X-Actor-Role is the same); empty is absent; another value is 400.',
      ),
      OrganizationHeader: actorHeader('X-Organization-Id', "Scopes reads; defaults a snapshot's organizationId."),
    },
    responses: {
      ...SHARED_RESPONSES,
      BadRequest: errorResponse(
        'VALIDATION_ERROR: unknown fields, wrong types, limits, malformed headers, query values or JSON; an attemptId in the body that differs from the path.',
      ),
      Unauthenticated: errorResponse(
        'UNAUTHENTICATED: a missing or wrong X-Internal-Token when INTERNAL_API_TOKEN is configured.',
      ),
      PayloadTooLarge: errorResponse('PAYLOAD_TOO_LARGE: body over 1 MB.'),
      Forbidden: errorResponse(
        "FORBIDDEN: a user actor without X-Organization-Id, a student asking for another student's results, or a parent or role-less user reading results.",
      ),
    },
    schemas: { ListMeta: LIST_META_SCHEMA, ...RESPONSE_SCHEMAS },
  },
};

/** The analytics service's OpenAPI document, generated from its route declarations. */
export function analyticsDocument(): JsonObject {
  return openApiDocument(BASE, analyticsRoutes);
}
