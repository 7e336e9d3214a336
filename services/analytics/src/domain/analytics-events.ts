import { AppError, type Actor } from '../../../kit/src/core/index.js';
import { inOrganization, readerReach } from './reach.js';
import type { AnalyticsEventRow } from '../store/models.js';
import * as store from '../store/event-store.js';
import type { AnalyticsDeps } from './deps.js';

/** What an event list may filter on, as the store reads it (the api names it through the domain). */
export type EventFilter = store.EventFilter;

export const MAX_PAYLOAD_BYTES = 16 * 1024;

export interface EventInput {
  type: string;
  entity?: string | null;
  entityId?: string | null;
  studentId?: string | null;
  examId?: string | null;
  classroomId?: string | null;
  attemptId?: string | null;
  occurredAt?: Date;
  payload?: Record<string, unknown>;
}

const REF_KEYS = ['entity', 'entityId', 'studentId', 'examId', 'classroomId', 'attemptId'] as const;
type RefKey = (typeof REF_KEYS)[number];

export function eventView(r: AnalyticsEventRow) {
  return {
    id: r._id,
    type: r.type,
    actorId: r.actorId,
    actorRole: r.actorRole,
    organizationId: r.organizationId,
    entity: r.entity,
    entityId: r.entityId,
    studentId: r.studentId,
    examId: r.examId,
    classroomId: r.classroomId,
    attemptId: r.attemptId,
    payload: JSON.parse(r.payloadJson) as Record<string, unknown>,
    occurredAt: r.occurredAt.toISOString(),
    createdAt: r.createdAt.toISOString(),
  };
}

/** Records one event; the actor and organization come from the X-Actor-* and X-Organization-Id headers. */
export async function recordEvent(deps: AnalyticsDeps, actor: Actor, input: EventInput) {
  // Kept as JSON text: payload keys such as "$set" or "a.b" are data here, never operators or paths.
  const payloadJson = JSON.stringify(input.payload ?? {});
  if (Buffer.byteLength(payloadJson) > MAX_PAYLOAD_BYTES) {
    throw new AppError('VALIDATION_ERROR', `payload must be at most ${MAX_PAYLOAD_BYTES} bytes of JSON`, {
      details: [{ path: 'payload', message: `must be at most ${MAX_PAYLOAD_BYTES} bytes of JSON` }],
    });
  }
  const now = deps.clock();
  const refs = Object.fromEntries(REF_KEYS.map((k) => [k, input[k] ?? null])) as Record<RefKey, string | null>;
  const row: AnalyticsEventRow = {
    _id: deps.newId(),
    type: input.type,
    actorId: actor.userId ?? null,
    actorRole: actor.role ?? null,
    organizationId: actor.organizationId ?? null,
    ...refs,
    payloadJson,
    occurredAt: input.occurredAt ?? now,
    createdAt: now,
  };
  await store.insertEvent(deps.models, row);
  return eventView(row);
}

export async function listEvents(
  deps: AnalyticsDeps,
  actor: Actor,
  q: Omit<store.EventFilter, 'organizationId'>,
  page: { skip: number; limit: number },
) {
  const { rows, total } = await store.listEvents(deps.models, eventScope(actor, q), page);
  return { items: rows.map(eventView), total };
}

/** Events a read may see (readerReach): everything in reach, or only the events the user recorded. */
function eventScope(actor: Actor, q: Omit<store.EventFilter, 'organizationId'>): store.EventFilter {
  const inOrg = inOrganization(actor, q);
  return readerReach(actor, 'events') === 'organization' ? inOrg : { ...inOrg, actorId: actor.userId };
}
