import { serviceDocument, OUTBOX_METRICS } from '../../kit/src/http/index.js';
import { portOf } from '../../registry.js';
import { attemptRoutes } from './routes/attempts.js';
import { VIEW_SCHEMAS } from './view-schemas.js';

export const SERVICE_NAME = 'attempt';
export const SERVICE_VERSION = '0.1.0';

/** The attempt service's OpenAPI document: its routes' declarations, document.json and decisions.json. */
export const attemptDocument = serviceDocument(
  {
    service: SERVICE_NAME,
    version: SERVICE_VERSION,
    port: portOf(SERVICE_NAME),
    from: import.meta.url,
    metrics: OUTBOX_METRICS,
  },
  {
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
  attemptRoutes,
);
