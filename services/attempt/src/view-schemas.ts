import type { JsonObject } from '../../kit/src/http/index.js';

/** The document's shapes of what the attempt views hold beside the attempt: answers, question copies, the result policy, events, results. */
export const VIEW_SCHEMAS: JsonObject = {
  StatementAnswer: {
    type: 'object',
    additionalProperties: false,
    required: ['label', 'value'],
    properties: {
      label: {
        type: 'string',
      },
      value: {
        type: ['boolean', 'null'],
      },
    },
  },
  Answer: {
    type: 'object',
    additionalProperties: false,
    required: [
      'questionId',
      'selectedOptionIds',
      'statementAnswers',
      'textAnswer',
      'clientVersion',
      'serverVersion',
      'sourceTabId',
      'savedAt',
      'isCorrect',
      'score',
    ],
    properties: {
      questionId: {
        type: 'string',
        pattern: '^[A-Za-z0-9_.:@-]{1,128}$',
      },
      selectedOptionIds: {
        type: 'array',
        items: {
          type: 'string',
        },
      },
      statementAnswers: {
        type: 'array',
        items: {
          $ref: '#/components/schemas/StatementAnswer',
        },
      },
      textAnswer: {
        type: ['string', 'null'],
      },
      clientVersion: {
        type: 'integer',
        minimum: 0,
      },
      serverVersion: {
        type: 'integer',
        minimum: 0,
      },
      sourceTabId: {
        type: ['string', 'null'],
      },
      savedAt: {
        type: ['string', 'null'],
        format: 'date-time',
      },
      isCorrect: {
        type: ['boolean', 'null'],
        description: 'null until graded, while hidden, and for blank or ungradable answers.',
      },
      score: {
        type: ['number', 'null'],
        description: 'null until graded and while hidden.',
      },
    },
  },
  AttemptQuestion: {
    type: 'object',
    additionalProperties: true,
    required: ['questionId', 'position', 'score', 'optionOrder'],
    description:
      "The attempt's copy of a snapshot, in this attempt's order (position), options sorted by optionOrder. Students never see answer keys (answerKeys, correctAnswer, explanation*, solution*, options[].isCorrect, subItems[].correctBoolean are removed); teachers and admins see the whole snapshot.",
    properties: {
      questionId: {
        type: 'string',
      },
      position: {
        type: 'integer',
        minimum: 0,
      },
      score: {
        type: 'number',
      },
      optionOrder: {
        type: 'array',
        items: {
          type: 'string',
        },
      },
    },
  },
  ResultPolicy: {
    type: 'object',
    additionalProperties: false,
    required: ['examTitle', 'durationMinutes', 'showResultMode', 'closeTime', 'resultsReleasedAt', 'examStatus'],
    properties: {
      examTitle: {
        type: 'string',
      },
      durationMinutes: {
        type: ['integer', 'null'],
      },
      showResultMode: {
        type: 'string',
        enum: ['IMMEDIATE', 'AFTER_CLOSE', 'MANUAL'],
      },
      closeTime: {
        type: ['string', 'null'],
        format: 'date-time',
      },
      resultsReleasedAt: {
        type: ['string', 'null'],
        format: 'date-time',
      },
      examStatus: {
        type: 'string',
      },
    },
  },
  AttemptEvent: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'type', 'createdAt', 'metadata'],
    properties: {
      id: {
        type: 'string',
      },
      type: {
        type: 'string',
        enum: [
          'START',
          'SAVE_ANSWER',
          'SUBMIT',
          'TIMEOUT',
          'QUESTION_VIEW',
          'TAB_HIDDEN',
          'FOCUS_RETURNED',
          'NETWORK_RETRY',
        ],
      },
      createdAt: {
        type: 'string',
        format: 'date-time',
      },
      metadata: {
        type: 'object',
      },
    },
  },
  StartResult: {
    type: 'object',
    additionalProperties: false,
    required: ['attempt', 'created'],
    properties: {
      attempt: {
        $ref: '#/components/schemas/Attempt',
      },
      created: {
        type: 'boolean',
      },
    },
  },
  Result: {
    type: 'object',
    additionalProperties: false,
    required: ['attempt', 'scorePercent'],
    properties: {
      attempt: {
        $ref: '#/components/schemas/Attempt',
      },
      scorePercent: {
        type: ['number', 'null'],
        description: 'totalScore / maxScore * 100, unrounded; null while hidden or when maxScore is 0.',
      },
    },
  },
};
