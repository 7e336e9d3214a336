import { AppError, type Actor } from '../../../kit/src/core/index.js';
import { CODES, MSG } from '../messages.js';
import type { AttemptDoc } from '../store/attempt-store.js';
import type { EventRow } from '../store/models.js';
import { assertOwner, assertReadable } from './access.js';
import type { AttemptDeps } from './deps.js';
import { submitAttempt } from './submit.js';

export const CLIENT_EVENT_TYPES = [
  'QUESTION_VIEW',
  'TAB_HIDDEN',
  'FOCUS_RETURNED',
  'NETWORK_RETRY',
  'TIMEOUT',
] as const;
export type ClientEventType = (typeof CLIENT_EVENT_TYPES)[number];

/** The event log lives in the attempt document; this bounds what clients can add to it. */
export const MAX_EVENTS = 5000;

export interface ClientEventInput {
  type: ClientEventType;
  questionId?: string;
  metadata?: Record<string, unknown>;
}

export type PostedEvent = { kind: 'event'; event: EventRow } | { kind: 'graded'; attempt: AttemptDoc };

/** A client event; TIMEOUT on an in-progress attempt is a submit with source TIMEOUT instead. */
export async function postEvent(
  deps: AttemptDeps,
  actor: Actor,
  attemptId: string,
  input: ClientEventInput,
): Promise<PostedEvent> {
  const doc = assertOwner(actor, await deps.store.byId(attemptId));
  if (input.type === 'TIMEOUT' && doc.status === 'IN_PROGRESS') {
    return { kind: 'graded', attempt: await submitAttempt(deps, attemptId, { source: 'TIMEOUT', by: actor.userId! }) };
  }
  const now = deps.clock();
  const metadata = { ...(input.metadata ?? {}), ...(input.questionId ? { questionId: input.questionId } : {}) };
  const event: EventRow = { id: deps.newId(), type: input.type, createdAt: now, metadata };
  const saved = await deps.store.casUpdate(
    { _id: attemptId, eventCount: { $lt: MAX_EVENTS } },
    { $push: { events: event }, $inc: { eventCount: 1 }, $set: { updatedAt: now } },
  );
  if (!saved) throw new AppError(CODES.tooManyEvents, MSG.tooManyEvents);
  return { kind: 'event', event };
}

/** Creation order: the log is appended in write order, so array order is creation order. */
export async function listEvents(deps: AttemptDeps, actor: Actor, attemptId: string): Promise<EventRow[]> {
  const doc = assertReadable(actor, await deps.store.events(attemptId));
  return doc.events ?? [];
}
