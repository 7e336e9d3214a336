import type { JsonObject } from '../../../kit/src/http/index.js';

/** The selection's summary members: what a 409 BLUEPRINT_INCOMPLETE carries as details. */
const SUMMARY_PROPERTIES: JsonObject = {
  complete: { type: 'boolean', description: 'Every rule filled.' },
  requested: { type: 'integer', minimum: 1 },
  selected: { type: 'integer', minimum: 0 },
  shortfall: { type: 'integer', minimum: 0 },
  ordering: { type: 'string', enum: ['NEWEST_FIRST', 'SEEDED'] },
  randomSeed: {
    type: ['string', 'null'],
    description: 'The seed as used (an integer seed comes back as its decimal string); null without one.',
  },
  rules: { type: 'array', items: { $ref: '#/components/schemas/BlueprintRuleOutcome' } },
};
const SUMMARY_REQUIRED = ['complete', 'requested', 'selected', 'shortfall', 'ordering', 'randomSeed', 'rules'];

/** Response shapes of the blueprint selection answer. */
export const BLUEPRINT_SELECTION_SCHEMAS: JsonObject = {
  BlueprintSelection: {
    type: 'object',
    additionalProperties: false,
    required: [...SUMMARY_REQUIRED, 'items'],
    properties: {
      ...SUMMARY_PROPERTIES,
      items: {
        type: 'array',
        items: { $ref: '#/components/schemas/BlueprintItem' },
        description: "Rule by rule, in each rule's order.",
      },
    },
  },
  BlueprintSelectionSummary: {
    type: 'object',
    additionalProperties: false,
    required: SUMMARY_REQUIRED,
    properties: SUMMARY_PROPERTIES,
  },
};
