// Weak-topic alerts: from the analytics event (the student, and the parents a caller last resolved
// for that student) and from POST /v1/alerts/weak-topic (the parents the caller resolved).
import type { Actor } from '../../../kit/src/core/index.js';
import { MAX_ALERT_PARENTS, WEAK_TOPIC_TYPE } from '../messages.js';
import { parentIdsOf, saveParentLink } from '../store/notification-store.js';
import type { NotificationDeps } from './deps.js';
import { fanOut, type FanOutResult, type NotificationContent } from './fanout.js';
import { uniqueIds } from './rules.js';
import { writerOrganization } from './writes.js';

export interface WeakTopic {
  topic: string;
  topicId?: string | null;
  wrongCount: number;
  attemptCount: number;
  accuracy: number;
}

export interface WeakTopicAlert {
  studentId: string;
  organizationId?: string | null;
  attemptId?: string | null;
  exam?: { id: string; title: string } | null;
  classroomId?: string | null;
  topics: WeakTopic[];
}

const percent = (accuracy: number) => `${Math.round(accuracy * 100)}%`;

/** The notification a weak-topic alert becomes (pure: the same alert gives the same text). */
export function weakTopicContent(alert: WeakTopicAlert): NotificationContent {
  const names = alert.topics.map((t) => `${t.topic} (${percent(t.accuracy)})`).join(', ');
  const where = alert.exam ? ` trong bài "${alert.exam.title}"` : '';
  return {
    type: WEAK_TOPIC_TYPE,
    title: `Chủ đề cần ôn tập${where}`,
    body: `Các chủ đề cần củng cố: ${names}.`,
    organizationId: alert.organizationId ?? null,
    data: {
      studentId: alert.studentId,
      attemptId: alert.attemptId ?? null,
      examId: alert.exam?.id ?? null,
      examTitle: alert.exam?.title ?? null,
      classroomId: alert.classroomId ?? null,
      topics: alert.topics.map((t) => ({
        topic: t.topic,
        topicId: t.topicId ?? null,
        wrongCount: t.wrongCount,
        attemptCount: t.attemptCount,
        accuracy: t.accuracy,
      })),
    },
  };
}

export type ParentAlertInput = WeakTopicAlert & { parentIds: string[]; alertKey?: string };

/**
 * Alerts the parents the caller resolved, and remembers them for the student, so later alerts
 * from Kafka reach them too (ids only: this service never asks the user service).
 */
export async function alertParents(deps: NotificationDeps, actor: Actor, input: ParentAlertInput) {
  const { parentIds, alertKey, ...alert } = input;
  alert.organizationId = writerOrganization(actor, alert.organizationId);
  const parents = uniqueIds(parentIds);
  await saveParentLink(deps.models, { _id: alert.studentId, parentIds: parents, updatedAt: deps.clock() });
  const key = alertKey ?? (alert.attemptId ? `attempt:${alert.attemptId}` : deps.newId());
  const source = { sourceKey: `alert:${key}`, createdBy: actor.userId ?? null };
  const result = await fanOut(deps, parents, weakTopicContent(alert), source);
  return { alertKey: key, ...result };
}

/** The Kafka path: the student and the remembered parents, keyed by the event id. */
export async function alertFromEvent(
  deps: NotificationDeps,
  eventId: string,
  alert: WeakTopicAlert,
): Promise<FanOutResult> {
  const parents = await parentIdsOf(deps.models, alert.studentId);
  const recipients = [alert.studentId, ...parents.slice(0, MAX_ALERT_PARENTS)];
  return fanOut(deps, recipients, weakTopicContent(alert), { sourceKey: `event:${eventId}`, createdBy: null });
}
