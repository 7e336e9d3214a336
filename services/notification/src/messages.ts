// Texts and codes of the notification service's refusals, in one place.
export const MSG = {
  notFound: 'Notification not found',
  actorRequired: 'X-Actor-Id is required',
  otherUser: 'Only an admin may list another user\u2019s notifications',
  otherOrganization: 'An admin lists only the organization of X-Organization-Id',
  internalOnly: 'Only a peer service, an ADMIN or a TEACHER may create notifications',
  parentOnly: 'Parent alerts are for PARENT callers',
  batchKeyReused: 'batchKey was already used with a different body',
  eventIdReused: 'event.id was already recorded with a different body',
  snapshotIdMismatch: 'id must equal the path\u2019s notificationId',
} as const;

export const CODES = {
  notFound: 'NOTIFICATION_NOT_FOUND',
  batchKeyReused: 'IDEMPOTENCY_KEY_REUSED',
} as const;

/** What the weak-topic alerts are typed (a preference may switch the type off). */
export const WEAK_TOPIC_TYPE = 'WEAK_TOPIC_ALERT';

/** Recipients in one batch request; more is a 400 (the largest fan-out a caller may send at once). */
export const MAX_BATCH_RECIPIENTS = 10_000;
/** Notifications in one POST /v1/events/notification, and parents in one weak-topic alert. */
export const MAX_EVENT_NOTIFICATIONS = 100;
export const MAX_ALERT_PARENTS = 100;
