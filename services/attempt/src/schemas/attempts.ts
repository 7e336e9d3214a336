import Joi from 'joi';
import { documentedAs, named, tolerant, type JsonObject } from '../../../kit/src/http/index.js';
import { CLIENT_EVENT_TYPES, type ClientEventInput } from '../domain/events.js';
import { ID_PATTERN, type Anything } from './start.js';

const id = Joi.string().pattern(ID_PATTERN);

export const attemptIdParams = Joi.object<{ attemptId: string }, true>({ attemptId: id.required() });

const OPTION_ID: JsonObject = { type: 'string', minLength: 1, maxLength: 128 };
const TRUTH: JsonObject = { type: ['boolean', 'null'] };

// What the grading library's normalizeAnswer accepts for each answer field (it checks them after
// the attempt is found, so an unknown attempt is a 404 whatever the body): joi only admits them.
const ANSWER_FIELDS: Record<'selectedOptionIds' | 'selectedOptionId' | 'statementAnswers' | 'textAnswer', JsonObject> =
  {
    selectedOptionIds: {
      description: 'Option ids (an array, or one id as a string).',
      oneOf: [{ type: 'array', maxItems: 26, items: OPTION_ID }, OPTION_ID, { type: 'null' }],
    },
    selectedOptionId: {
      description: 'One option id (legacy singular).',
      type: ['string', 'null'],
      minLength: 1,
      maxLength: 128,
    },
    statementAnswers: {
      description:
        'True/false statements: [{ label, value }] (label A..D; key, statementId or id also name it; answer, selected or isTrue also carry the value), a map { A: true }, or a positional array [true, false, null, true].',
      oneOf: [
        {
          type: 'array',
          maxItems: 26,
          items: {
            oneOf: [
              TRUTH,
              {
                type: 'object',
                required: ['label'],
                properties: { label: { type: 'string', minLength: 1, maxLength: 20, pattern: '\\S' }, value: TRUTH },
              },
            ],
          },
        },
        { type: 'object', maxProperties: 26, additionalProperties: TRUTH },
        { type: 'null' },
      ],
    },
    textAnswer: { oneOf: [{ type: 'string', maxLength: 1000 }, { type: 'number' }, { type: 'null' }] },
  };

const answerFields = {
  selectedOptionIds: documentedAs(Joi.any(), ANSWER_FIELDS.selectedOptionIds),
  selectedOptionId: documentedAs(Joi.any(), ANSWER_FIELDS.selectedOptionId),
  statementAnswers: documentedAs(Joi.any(), ANSWER_FIELDS.statementAnswers),
  textAnswer: documentedAs(Joi.any(), ANSWER_FIELDS.textAnswer),
};

const nestedAnswer = documentedAs(Joi.any(), {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: ANSWER_FIELDS,
  description: 'Nested answer fields; a field here wins over the same field at the top level.',
});

/** The save-answer body as validated: the answer fields are passed on as given. */
export type AnswerBody = {
  questionId: string;
  answer?: Anything;
  selectedOptionIds?: Anything;
  selectedOptionId?: Anything;
  statementAnswers?: Anything;
  textAnswer?: Anything;
  clientVersion: number;
  sourceTabId?: string | null;
};

export const answerBody = named(
  'SaveAnswerRequest',
  Joi.object<AnswerBody, true>({
    questionId: id.required(),
    answer: nestedAnswer,
    ...answerFields,
    clientVersion: Joi.number().strict().integer().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
    sourceTabId: Joi.string().max(128).allow(null, ''),
  }),
);

export const submitBody = named(
  'SubmitRequest',
  Joi.object<{ source: 'STUDENT' }, true>({
    source: Joi.string().valid('STUDENT').default('STUDENT'),
  }).default({}),
);

/** The question may also come nested (`question: { id }`); both given must agree. */
export const EVENT_SPELLINGS = [{ path: 'question.id', alias: 'questionId' }] as const;

/** The event body as validated: the question's id is read from `question.id` (either spelling). */
export type EventBody = {
  type: ClientEventInput['type'];
  questionId?: string;
  question?: { id?: string };
  metadata?: Record<string, string | number | boolean | null>;
};

// A tolerant reader: members not named here are dropped at every depth, never stored. The
// metadata keys are data, so one breaking the pattern stays refused (unknown(false): not dropped).
export const eventBody = named(
  'ClientEventRequest',
  tolerant(
    Joi.object<EventBody, true>({
      type: Joi.string()
        .valid(...CLIENT_EVENT_TYPES)
        .required(),
      questionId: id.description(
        'The question this event is about; stored as metadata.questionId. Also spelled question.id; when both are sent they must be equal, else 400 VALIDATION_ERROR naming questionId.',
      ),
      question: Joi.object<{ id?: string }, true>({ id }).description(
        'Nested spelling of questionId; only its id is read, other members are ignored.',
      ),
      metadata: Joi.object()
        .max(20)
        .pattern(/^[A-Za-z0-9_.-]{1,64}$/, [
          Joi.string().max(500).allow(''),
          Joi.number().strict(),
          Joi.boolean().strict(),
          Joi.valid(null),
        ])
        .unknown(false)
        .description('Free-form scalars under keys of the pattern; a key breaking it is 400 (not dropped).'),
    }),
    EVENT_SPELLINGS,
  ).description(
    'A tolerant reader (x-decisions): members not named here are ignored at every depth, never stored; named members keep their types and enums.',
  ),
);
