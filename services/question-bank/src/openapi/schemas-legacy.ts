import type { JsonObject } from '../../../kit/src/http/index.js';

/** Response shapes of the legacy views. */
export const LEGACY_SCHEMAS: JsonObject = {
  LegacyQuestionListItem: {
    type: 'object',
    additionalProperties: true,
    required: ['id', '_count'],
    description:
      'Scalar fields, subject/chapter/topic `{ id, name }`, customType `{ name, baseType }`, createdBy `{ fullName, email }`, organization `{ id, name, slug }`, `_count`; no currentVersion, options, mediaRefs, formulaRefs.',
    not: {
      anyOf: [
        { required: ['currentVersion'] },
        { required: ['options'] },
        { required: ['mediaRefs'] },
        { required: ['formulaRefs'] },
      ],
    },
    properties: { id: { type: 'string' }, _count: { type: 'object' } },
  },
  LegacyQuestionDetail: {
    type: 'object',
    additionalProperties: true,
    required: ['id', 'options', 'tags', 'currentVersion'],
    description:
      'Scalar fields, group, customType, createdBy, currentVersion, ordered options, tags as `{ tag: { name } }` wrappers (view=editor adds contentJson and explanationJson).',
    properties: {
      id: { type: 'string' },
      options: { type: 'array' },
      tags: {
        type: 'array',
        items: {
          type: 'object',
          required: ['tag'],
          properties: { tag: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
        },
      },
      currentVersion: { $ref: '#/components/schemas/QVersion' },
    },
  },
};
