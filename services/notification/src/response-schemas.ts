import type { JsonObject } from '../../kit/src/http/index.js';

const COUNT: JsonObject = { type: 'integer', minimum: 0 };

/**
 * What a delivery answers: how many recipients were asked for and what became of them, after the
 * keys that name the delivery (`keyed`, first in both lists). The fan-out results differ only there.
 */
function deliveryCounts(keyed: Record<string, JsonObject>): JsonObject {
  const counts = ['requested', 'created', 'existing', 'muted', 'typeDisabled'];
  const properties = { ...keyed, ...Object.fromEntries(counts.map((name) => [name, COUNT])) };
  return { type: 'object', additionalProperties: false, properties, required: Object.keys(properties) };
}

/** The shapes the notification service answers with (request shapes come from its joi schemas). */
export const RESPONSE_SCHEMAS: Record<string, JsonObject> = {
  Notification: {
    type: 'object',
    additionalProperties: false,
    properties: {
      id: { type: 'string' },
      userId: { type: 'string' },
      organizationId: { type: ['string', 'null'] },
      type: { type: 'string' },
      title: { type: 'string' },
      body: { type: 'string' },
      data: { type: 'object' },
      isRead: { type: 'boolean' },
      readAt: { type: ['string', 'null'], format: 'date-time' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
    },
    required: [
      'id',
      'userId',
      'organizationId',
      'type',
      'title',
      'body',
      'data',
      'isRead',
      'readAt',
      'createdAt',
      'updatedAt',
    ],
  },
  InboxPage: {
    type: 'object',
    additionalProperties: false,
    properties: {
      items: { type: 'array', items: { $ref: '#/components/schemas/Notification' } },
      meta: { $ref: '#/components/schemas/ListMeta' },
      unreadCount: { type: 'integer', minimum: 0 },
    },
    required: ['items', 'meta', 'unreadCount'],
  },
  FanOutResult: deliveryCounts({}),
  BatchResult: deliveryCounts({ batchKey: { type: ['string', 'null'] } }),
  Preferences: {
    type: 'object',
    additionalProperties: false,
    properties: {
      userId: { type: 'string' },
      enabledTypes: { type: 'object', additionalProperties: { type: 'boolean' } },
      mutedUntil: { type: ['string', 'null'], format: 'date-time' },
      updatedAt: { type: ['string', 'null'], format: 'date-time' },
    },
    required: ['userId', 'enabledTypes', 'mutedUntil', 'updatedAt'],
  },
  WeakTopicResult: deliveryCounts({ alertKey: { type: 'string' } }),
  NotificationEvent: {
    type: 'object',
    additionalProperties: false,
    properties: {
      id: { type: 'string' },
      type: { type: 'string' },
      actorId: { type: ['string', 'null'] },
      targetUserId: { type: ['string', 'null'] },
      entity: { type: 'string' },
      entityId: { type: 'string' },
      organizationId: { type: ['string', 'null'] },
      data: { type: 'object' },
      createdAt: { type: 'string', format: 'date-time' },
    },
    required: ['id', 'type', 'actorId', 'targetUserId', 'entity', 'entityId', 'organizationId', 'data', 'createdAt'],
  },
  EventResult: {
    type: 'object',
    additionalProperties: false,
    properties: {
      created: { type: 'boolean' },
      event: { $ref: '#/components/schemas/NotificationEvent' },
      notifications: { $ref: '#/components/schemas/FanOutResult' },
    },
    required: ['created', 'event', 'notifications'],
  },
};
