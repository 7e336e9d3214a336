import {
  actorHeader,
  errorResponse,
  openApiDocument,
  type DocumentBase,
  type JsonObject,
} from '../../kit/src/index.js';
import { attemptRoutes } from './routes/attempts.js';
import { VIEW_SCHEMAS } from './view-schemas.js';

export const SERVICE_NAME = 'attempt';
export const SERVICE_VERSION = '0.1.0';

/** What the attempt service's document says beside its routes: the service, its rules, the response shapes. */
const BASE: DocumentBase = {
  kit: {
    service: SERVICE_NAME,
    metrics: 'outbox_pending_entries, outbox_oldest_pending_age_seconds, outbox_published_total, outbox_dead_total',
  },
  info: {
    title: 'edu-platform attempt service',
    version: SERVICE_VERSION,
    description:
      'Starting, answering, submitting, grading, events and results of exam attempts (seed 002). Every request and response shape and every choice the contract leaves open (x-decisions).',
  },
  servers: [
    {
      url: 'http://127.0.0.1:4006',
    },
  ],
  'x-decisions': [
    'Actor: X-User-Id and X-User-Role (X-Actor-Id/X-Actor-Role also read). No user id is 401 UNAUTHENTICATED. Start, answers, submit and posting events need role STUDENT (403 FORBIDDEN otherwise); reads (detail, events, result) need STUDENT, TEACHER or ADMIN (PARENT is 403: parent linkage is a later adapter).',
    "Students reach only their own attempts: another student's attempt is 404 ATTEMPT_NOT_FOUND, exactly like a missing one, so ids cannot be probed. A TEACHER or ADMIN who sends X-Organization-Id reaches only attempts of that organization (404 otherwise); without the header, any.",
    'Start success status: 201 with created=true for a new attempt, 200 with created=false for a reused IN_PROGRESS one; message OK in both.',
    'Password access: the attempt service never sees exam passwords. The trusted caller (exam service or gateway) checks the password and sends access.passwordVerified=true; when exam.requiresAccessPassword is true and it is not, start is 403 EXAM_PASSWORD_INVALID.',
    'Assignment or access link: access.assigned=true, or access.accessLink { id, active (default true), maxStudents } with active true; else 403 EXAM_ACCESS_DENIED. A student not assigned who enters through a link is a guest of that link: when maxStudents is set and that many distinct students already started through the link (this student not among them), start is 409 ACCESS_LINK_LIMIT_REACHED. The count is read before the insert, so two new guests racing for the last seat can both get in (documented limit).',
    "Attempt limit: access.attemptLimit (the caller's per-student value) when given, else exam.maxAttempts; 0 or null means unlimited. All earlier attempts of the student for the exam count; 409 ATTEMPT_LIMIT_REACHED when reached.",
    "Reuse: one IN_PROGRESS attempt per student and exam, enforced by a unique index (two concurrent starts produce one attempt; the loser returns the winner's with created=false). A start through another access link still returns the in-progress attempt. An in-progress attempt whose deadline passed is first submitted with source TIMEOUT, then the start proceeds as new (subject to the limits).",
    "Time window: now >= openTime (else 409 EXAM_NOT_OPEN) and now < closeTime (else 409 EXAM_CLOSED); a null bound is open. deadlineAt = startedAt + durationMinutes, capped at closeTime; with neither, deadlineAt is null and only the student's submit ends the attempt.",
    "Snapshots: questions are copied into the attempt document (attempt-owned rows, never re-read from the question bank) sorted by orderIndex; position is this attempt's order. shuffleQuestions or randomizePerAttempt shuffles the order, shuffleOptions the optionOrder (given optionOrder, else the options' order), each seeded by the attempt id so every reload shows the same order. A question's points: its score, else scoringRule.maxScore, else 1; maxScore is their sum.",
    "Tolerant reader (issue 22; internal bodies: the start route's exam runtime snapshot, on POST /v1/exams/{examId}/attempts and /start, and POST /v1/attempts/{attemptId}/events): a member the service does not use is ignored at every depth (top level, exam, access, access.accessLink, each question snapshot, its options and scoringRule; the event body and its question), never refused and never stored; the members it uses keep their types, enums and limits (400 VALIDATION_ERROR otherwise) and every start validation is unchanged (the path exam id must equal the body's, else 400 EXAM_ID_MISMATCH). Named free-form parts are kept as given and still refuse field names MongoDB cannot store: studentInfo, a question's answerKeys, subItems[], contentJson, explanationJson, mediaRefs[], formulaRefs[] and group (what grading reads and the student's client renders). An event's metadata keys are data: a key outside ^[A-Za-z0-9_.-]{1,64}$ or a non-scalar value is still 400, not dropped. Spellings: the exam id as exam.id or examId (flat, as the path names it; it stands for exam.id when that is absent); the event's question as questionId or question.id. When both spellings are sent they must be equal, else 400 VALIDATION_ERROR naming the flat one (examId, questionId). Answers and submit (a student's own inputs) keep refusing unknown members.",
    "Answer ids: an answer's questionId may name the snapshot's questionId, id or examQuestionId (tried in that order); the stored answer carries the snapshot's questionId.",
    "Versions: clientVersion defaults to 0 and 0 always writes. A positive clientVersion below the stored serverVersion is 409 ANSWER_VERSION_CONFLICT with error.details.answer. Otherwise the new serverVersion is max(stored + 1, clientVersion): it always increases, and a client that numbers its saves never has its newest overwritten by an older one arriving later. Every save is one compare-and-set on (status IN_PROGRESS, the answer's serverVersion, deadline not passed); a lost race re-reads.",
    'A save replaces the whole answer: fields absent from the body are cleared. sourceTabId is kept from the previous save when a save omits it.',
    "Submit: body { source } accepts only STUDENT (TIMEOUT is internal: the sweeper, a late save, a later start or the client TIMEOUT event). Grading and the GRADED flip, the SUBMIT/TIMEOUT event and the attempt.graded.v1 outbox entry are one conditional single-document write on the attempt's revision: a save that lands between grading and the flip makes the flip miss and the attempt is graded again, and no save lands after it.",
    "durationSeconds = (min(submittedAt, deadlineAt) - startedAt), whole seconds: a sweep after the deadline does not add to it. submittedBy is the student's id, or SYSTEM for a timeout the service detected.",
    'Visibility: hiddenReason is one of ATTEMPT_IN_PROGRESS, RESULTS_AFTER_CLOSE, RESULTS_NOT_RELEASED, ROLE_NOT_ALLOWED; while hidden, totalScore, correctCount, wrongCount, answers[].isCorrect, answers[].score and scorePercent are null and resultsVisible is false.',
    "Students never see answer keys in the attempt's questions (answerKeys, correctAnswer, explanation, solution fields, options[].isCorrect, subItems[].correctBoolean are removed), also after grading; teachers and admins see whole snapshots.",
    "Events: stored in the attempt document in write order (creation order). Client events: QUESTION_VIEW, TAB_HIDDEN, FOCUS_RETURNED, NETWORK_RETRY, TIMEOUT, with optional questionId (or question.id) and metadata (at most 20 scalar members); they are recorded on graded attempts too. Client events are accepted while the attempt holds fewer than 5000 events (429 RATE_LIMITED after). SAVE_ANSWER events are recorded until it holds 20000; later saves are still stored, without an event, so the log never outgrows MongoDB's document limit. GET returns all events as a plain array (no paging).",
    'Sweeper: every ATTEMPT_SWEEP_INTERVAL_MS (default 5000; 0 off) each replica submits up to ATTEMPT_SWEEP_BATCH (default 100) IN_PROGRESS attempts past deadlineAt with source TIMEOUT; the compare-and-set makes several replicas safe (one grading, one event).',
    "attempt.graded.v1 (kafka/topics.json, key attemptId, event id '<attemptId>.graded') goes through the outbox in the same write as the GRADED flip. It takes organizationId, exam.subjectId and exam.gradeLevel from the start request's exam, the classroom from access.classroomId/classroomName (null when absent), fullName and accountCode from studentInfo, and wrongAnswerTopics from the questions' topicId/topicName (one entry per WRONG or PARTIAL answer whose question has one).",
  ],
  components: {
    securitySchemes: {
      internalToken: {
        type: 'apiKey',
        in: 'header',
        name: 'X-Internal-Token',
        description:
          'Required on /v1/* routes (except /v1 and /v1/openapi.json) when INTERNAL_API_TOKEN is configured.',
      },
    },
    parameters: {
      UserHeader: actorHeader('X-User-Id', 'The actor; missing is 401.'),
      RoleHeader: actorHeader(
        'X-User-Role',
        "The caller's role (X-Actor-Role is read too), in any case; empty is absent.",
      ),
      OrganizationHeader: actorHeader('X-Organization-Id', 'The organization the caller acts in (empty is absent).'),
    },
    responses: {
      BadRequest: errorResponse(
        'VALIDATION_ERROR (unknown fields, wrong types, limits, malformed headers or JSON, malformed answers), EXAM_ID_MISMATCH, EXAM_HAS_NO_QUESTIONS, QUESTION_NOT_IN_ATTEMPT.',
      ),
      Unauthenticated: errorResponse(
        'UNAUTHENTICATED: no X-User-Id (or a missing/wrong X-Internal-Token when configured).',
      ),
      Forbidden: errorResponse('FORBIDDEN (role not allowed), EXAM_PASSWORD_INVALID, EXAM_ACCESS_DENIED.'),
      NotFound: errorResponse("ATTEMPT_NOT_FOUND (missing, or not the caller's), ROUTE_NOT_FOUND."),
      PayloadTooLarge: errorResponse('PAYLOAD_TOO_LARGE: body over 5 MB.'),
      UnsupportedMediaType: errorResponse('UNSUPPORTED_MEDIA_TYPE: body not JSON.'),
      InternalError: errorResponse('INTERNAL_ERROR.'),
      Unavailable: errorResponse('DEPENDENCY_UNAVAILABLE: MongoDB unreachable.'),
    },
    schemas: {
      ...VIEW_SCHEMAS,
      Attempt: {
        type: 'object',
        additionalProperties: false,
        required: [
          'id',
          'examId',
          'organizationId',
          'studentId',
          'status',
          'attemptNumber',
          'startedAt',
          'deadlineAt',
          'submittedAt',
          'submittedBy',
          'submissionSource',
          'durationSeconds',
          'totalScore',
          'maxScore',
          'correctCount',
          'wrongCount',
          'questions',
          'answers',
          'resultPolicy',
          'resultsVisible',
          'hiddenReason',
        ],
        properties: {
          id: {
            type: 'string',
          },
          examId: {
            type: 'string',
          },
          organizationId: {
            type: 'string',
          },
          studentId: {
            type: 'string',
          },
          status: {
            type: 'string',
            enum: ['IN_PROGRESS', 'GRADED'],
          },
          attemptNumber: {
            type: 'integer',
            minimum: 1,
          },
          accessLinkId: {
            type: ['string', 'null'],
          },
          assigned: {
            type: 'boolean',
          },
          startedAt: {
            type: 'string',
            format: 'date-time',
          },
          deadlineAt: {
            type: ['string', 'null'],
            format: 'date-time',
          },
          submittedAt: {
            type: ['string', 'null'],
            format: 'date-time',
          },
          submittedBy: {
            type: ['string', 'null'],
            description:
              "The student's id, or SYSTEM when the service detected the timeout (sweeper, late save, later start).",
          },
          submissionSource: {
            type: ['string', 'null'],
            enum: ['STUDENT', 'TIMEOUT', null],
          },
          durationSeconds: {
            type: ['integer', 'null'],
            minimum: 0,
          },
          totalScore: {
            type: ['number', 'null'],
          },
          maxScore: {
            type: 'number',
          },
          correctCount: {
            type: ['integer', 'null'],
          },
          wrongCount: {
            type: ['integer', 'null'],
          },
          exam: {
            type: 'object',
          },
          classroom: {
            type: ['object', 'null'],
          },
          studentInfo: {
            type: ['object', 'null'],
          },
          resultPolicy: {
            $ref: '#/components/schemas/ResultPolicy',
          },
          questions: {
            type: 'array',
            items: {
              $ref: '#/components/schemas/AttemptQuestion',
            },
          },
          answers: {
            type: 'array',
            items: {
              $ref: '#/components/schemas/Answer',
            },
            description: 'One per question, same order as questions.',
          },
          createdAt: {
            type: 'string',
            format: 'date-time',
          },
          updatedAt: {
            type: 'string',
            format: 'date-time',
          },
          resultsVisible: {
            type: 'boolean',
          },
          hiddenReason: {
            type: ['string', 'null'],
            enum: ['ATTEMPT_IN_PROGRESS', 'RESULTS_AFTER_CLOSE', 'RESULTS_NOT_RELEASED', 'ROLE_NOT_ALLOWED', null],
          },
        },
      },
    },
  },
};

/** The attempt service's OpenAPI document, generated from its route declarations. */
export function attemptDocument(): JsonObject {
  return openApiDocument(BASE, attemptRoutes);
}
