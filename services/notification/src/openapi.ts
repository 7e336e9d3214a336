import {
  actorHeader,
  INTERNAL_TOKEN_SCHEME,
  LIST_META_SCHEMA,
  SHARED_RESPONSES,
  errorResponse,
  openApiDocument,
  type DocumentBase,
  type JsonObject,
} from '../../kit/src/index.js';
import { RESPONSE_SCHEMAS } from './response-schemas.js';
import { notificationRoutes } from './routes/index.js';

export const SERVICE_NAME = 'notification';
export const SERVICE_VERSION = '0.1.0';

/** What the notification document says beside its routes: the service, its rules, the response shapes. */
const BASE: DocumentBase = {
  kit: { service: SERVICE_NAME },
  info: {
    title: 'edu-platform notification service',
    version: SERVICE_VERSION,
    description:
      'In-app notifications, preferences, parent alerts, notification events and the weak-topic alert consumer (seed 000). Every request and response shape and every choice the contract leaves open (x-decisions).',
  },
  servers: [{ url: 'http://127.0.0.1:4004' }],
  'x-decisions': [
    'Actor: X-Actor-Id / X-Actor-Role (X-User-Id / X-User-Role are read too). The admin is role ADMIN. Inbox, preference and parent routes need X-Actor-Id (401 without).',
    "Own-inbox scope: with X-Actor-Scope: self (sent by the gateway on its public inbox and parent-alert tables, never accepted from a client there) an ADMIN is treated as a plain owner: lists, reads, read and delete touch only the caller's own rows, and a userId query naming someone else is 403. Without it, ADMIN keeps the contract's admin reach (internal callers only: /v1 requires X-Internal-Token).",
    'Inbox: a non-admin sees only rows addressed to them; naming another userId is 403. An ADMIN lists one user (userId) or everyone. organizationId (query) filters; X-Organization-Id never filters list, read-all or delete-all.',
    'Filters: ALL (default), UNREAD, READ, SUPPORT (types starting with SUPPORT). q: literal case-insensitive text in title or body. Newest first (createdAt, then id).',
    'Paging: page default 1 (clamped 1..1,000,000), limit default 20 clamped to 1..100, never a 400. The list data is { items, meta, unreadCount }: unreadCount counts unread rows of the same user/organization scope, whatever filter and q.',
    'Single-row reads and writes: an admin reaches any row; anyone else only their own, and another user’s row is 404 NOTIFICATION_NOT_FOUND like a missing one (ids cannot be probed). Read is idempotent: readAt keeps the first read. Delete removes the row (hard delete).',
    'read-all and delete-all act on the caller’s own rows only, an admin’s included (never global).',
    'Writes (create, batch, snapshot, weak-topic, events) are for peer services: no actor needed (INTERNAL_API_TOKEN guards them when set); an ADMIN or TEACHER actor may call them; a STUDENT or PARENT actor is 403. The actor id is kept as createdBy.',
    'organizationId of a created row: the body’s, else X-Organization-Id, else null.',
    'Preferences apply to fan-out only (batch, weak-topic alerts, event notifications, the Kafka consumer): a recipient with mutedUntil in the future, or enabledTypes[type] === false, gets no row and is counted as muted / typeDisabled. POST /v1/notifications (one chosen recipient) and snapshots are direct writes and ignore preferences. A mute never hides existing rows.',
    'Preferences PATCH: at least one of enabledTypes (merged key by key into the stored map; at most 100 keys per PATCH, 200 in all) and mutedUntil (replaces; null clears). Type names match ^[A-Za-z0-9_:-]{1,64}$.',
    'Batch: recipientIds 1..10,000 (10,001 is 400 VALIDATION_ERROR); duplicates count once; body limit 2 MB (413 above). Rows are inserted in unordered chunks of 1,000. With batchKey the batch is idempotent: rows are unique by (batch key, recipient), so a replay creates only rows not yet created (existing counts the rest); the same key with a different body is 409 IDEMPOTENCY_KEY_REUSED. Without batchKey every request is a new fan-out.',
    'Weak-topic alerts (POST /v1/alerts/weak-topic): type WEAK_TOPIC_ALERT to each resolved parent (1..100), text built from the exam title and the topics, data { studentId, attemptId, examId, examTitle, classroomId, topics }. Idempotent by alertKey, default attempt:<attemptId>. The parent ids are remembered for the student (ids only, never fetched from the user service) so later alerts from Kafka reach them too.',
    'Kafka: the service consumes analytics.weak-topic-detected.v1 (group notification, DLQ <topic>.dlq, created at start if missing) and notifies the student and the remembered parents (preferences apply). Idempotent by event id: the kit’s processed-event record, and a unique (source event, recipient) index on the rows. An event of another type, or whose data is not an alert, goes to the DLQ at once. Config: NOTIFICATION_CONSUMER (kafka | none), NOTIFICATION_WEAK_TOPIC_TOPIC, NOTIFICATION_CONSUMER_GROUP (default notification), NOTIFICATION_CONSUMER_SESSION_TIMEOUT_MS (default 30000). The student and parents get the same text; parents are those last resolved through POST /v1/alerts/weak-topic (the event carries no parent ids).',
    'Events (POST /v1/events/notification): records { type, actorId (default the caller), targetUserId, entity, entityId, organizationId, data } and creates its notifications (at most 100, preferences apply) keyed by (event id, index, recipient). A caller-given event.id makes it idempotent: a replay answers 200 with created=false and the first recorded event, and creates only notifications not created yet. Event types are free names; nothing is published outbound.',
    'Snapshot PUT: upserts the whole row by id (201 created, 200 replaced); isRead defaults to whether readAt is given; readAt of a read row defaults to updatedAt, else now.',
    "Tolerant reader (internal bodies: the PUT snapshot, POST /v1/alerts/weak-topic and POST /v1/events/notification, notifications inside included): a member the service does not use is ignored at every depth, never refused and never stored; the members it uses keep their types and limits (400 otherwise); data stays free JSON. Spellings accepted: the snapshot's id as id or notificationId (must agree, and equal the path's notificationId, else 400 naming the member); the weak-topic alert's ids flat or nested (studentId | student.id, attemptId | attempt.id, classroomId | classroom.id) and its exam nested or flat as the alert's data spells it (exam.id | examId, exam.title | examTitle; a flat exam needs both); when both spellings are sent they must be equal, else 400 VALIDATION_ERROR naming the alias. POST /v1/notifications, the batch and the preferences PATCH keep refusing unknown members.",
    'data of notifications and events is free JSON (at most 50 top-level keys), stored as text and returned as sent.',
  ],
  components: {
    securitySchemes: { internalToken: INTERNAL_TOKEN_SCHEME },
    parameters: {
      ActorId: actorHeader('X-Actor-Id', 'Caller (X-User-Id is read too); recorded as createdBy. Empty is absent.'),
      ActorIdRequired: actorHeader('X-Actor-Id', 'Caller (X-User-Id is read too); missing is 401.', true),
      ActorRole: actorHeader('X-Actor-Role', 'ADMIN is the admin (X-User-Role is read too). Empty is absent.'),
      ActorRoleRequired: actorHeader('X-Actor-Role', 'PARENT; any other role is 403.', true),
      OrganizationHeader: actorHeader('X-Organization-Id', 'Default organizationId of created rows; never a filter.'),
    },
    responses: {
      ...SHARED_RESPONSES,
      BadRequest: errorResponse(
        'VALIDATION_ERROR: wrong types, unknown fields, limits (batch over 10,000 recipients), malformed headers or JSON.',
      ),
      Unauthenticated: errorResponse(
        'UNAUTHENTICATED: no X-Actor-Id where a caller is needed, or a wrong X-Internal-Token.',
      ),
      Forbidden: errorResponse(
        'FORBIDDEN: a non-admin naming another user, a STUDENT or PARENT on a write route, a non-PARENT on parent alerts.',
      ),
      NotFound: errorResponse('NOTIFICATION_NOT_FOUND (also for another user’s row), or NOT_FOUND.'),
      Conflict: errorResponse('IDEMPOTENCY_KEY_REUSED: batchKey reused with another body.'),
      PayloadTooLarge: errorResponse('PAYLOAD_TOO_LARGE: body over 2 MB.'),
    },
    schemas: { ListMeta: LIST_META_SCHEMA, ...RESPONSE_SCHEMAS },
  },
};

/** The notification service's OpenAPI document, generated from its route declarations. */
export function notificationDocument(): JsonObject {
  return openApiDocument(BASE, notificationRoutes);
}
