import {
  INTERNAL_TOKEN_SCHEME,
  documentHead,
  actorHeader,
  errorResponse,
  openApiDocument,
  type DocumentBase,
  type JsonObject,
} from '../../kit/src/http/index.js';
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
  ...documentHead(
    {
      service: SERVICE_NAME,
      version: SERVICE_VERSION,
      port: 4006,
      decisions: new URL('../decisions.json', import.meta.url),
    },
    'Starting, answering, submitting, grading, events and results of exam attempts (seed 002). Every request and response shape and every choice the contract leaves open (x-decisions).',
  ),
  components: {
    securitySchemes: { internalToken: INTERNAL_TOKEN_SCHEME },
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
          id: { type: 'string' },
          examId: { type: 'string' },
          organizationId: { type: 'string' },
          studentId: { type: 'string' },
          status: { type: 'string', enum: ['IN_PROGRESS', 'GRADED'] },
          attemptNumber: { type: 'integer', minimum: 1 },
          accessLinkId: { type: ['string', 'null'] },
          assigned: { type: 'boolean' },
          startedAt: { type: 'string', format: 'date-time' },
          deadlineAt: { type: ['string', 'null'], format: 'date-time' },
          submittedAt: { type: ['string', 'null'], format: 'date-time' },
          submittedBy: {
            type: ['string', 'null'],
            description:
              "The student's id, or SYSTEM when the service detected the timeout (sweeper, late save, later start).",
          },
          submissionSource: { type: ['string', 'null'], enum: ['STUDENT', 'TIMEOUT', null] },
          durationSeconds: { type: ['integer', 'null'], minimum: 0 },
          totalScore: { type: ['number', 'null'] },
          maxScore: { type: 'number' },
          correctCount: { type: ['integer', 'null'] },
          wrongCount: { type: ['integer', 'null'] },
          exam: { type: 'object' },
          classroom: { type: ['object', 'null'] },
          studentInfo: { type: ['object', 'null'] },
          resultPolicy: { $ref: '#/components/schemas/ResultPolicy' },
          questions: {
            type: 'array',
            items: { $ref: '#/components/schemas/AttemptQuestion' },
          },
          answers: {
            type: 'array',
            items: { $ref: '#/components/schemas/Answer' },
            description: 'One per question, same order as questions.',
          },
          createdAt: { type: 'string', format: 'date-time' },
          updatedAt: { type: 'string', format: 'date-time' },
          resultsVisible: { type: 'boolean' },
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
