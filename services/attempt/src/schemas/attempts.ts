import Joi from 'joi';
import { tolerant } from '../../../kit/src/index.js';
import { CLIENT_EVENT_TYPES, type ClientEventInput } from '../domain/events.js';
import { ID_PATTERN } from './start.js';

const id = Joi.string().pattern(ID_PATTERN);

export const attemptIdParams = Joi.object({ attemptId: id.required() });

// Shapes and variants are the grading library's (normalizeAnswer checks them after the attempt
// is found, so an unknown attempt is a 404 whatever the body); here they are only admitted.
const answerFields = {
  selectedOptionIds: Joi.any(),
  selectedOptionId: Joi.any(),
  statementAnswers: Joi.any(),
  textAnswer: Joi.any(),
};

export const answerBody = Joi.object({
  questionId: id.required(),
  answer: Joi.any(),
  ...answerFields,
  clientVersion: Joi.number().strict().integer().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  sourceTabId: Joi.string().max(128).allow(null, ''),
});

export const submitBody = Joi.object({
  source: Joi.string().valid('STUDENT').default('STUDENT'),
}).default({});

/** The question may also come nested (`question: { id }`); both given must agree. */
export const EVENT_SPELLINGS = [{ path: 'question.id', alias: 'questionId' }] as const;

// A tolerant reader: members not named here are dropped at every depth, never stored. The
// metadata keys are data, so one breaking the pattern stays refused (unknown(false): not dropped).
export const eventBody = tolerant(
  Joi.object({
    type: Joi.string()
      .valid(...CLIENT_EVENT_TYPES)
      .required(),
    questionId: id,
    question: Joi.object({ id }),
    metadata: Joi.object()
      .max(20)
      .pattern(/^[A-Za-z0-9_.-]{1,64}$/, [
        Joi.string().max(500).allow(''),
        Joi.number().strict(),
        Joi.boolean().strict(),
        Joi.valid(null),
      ])
      .unknown(false),
  }),
  EVENT_SPELLINGS,
);

/** The event body as validated: the question's id is read from `question.id` (either spelling). */
export interface EventBody {
  type: ClientEventInput['type'];
  question?: { id?: string };
  metadata?: Record<string, unknown>;
}

export const eventsQuery = Joi.object({});
