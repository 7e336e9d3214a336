import { AppError } from '../../../kit/src/core/index.js';
import { weakTopicDetected, WEAK_TOPIC_TOPIC } from '../events.js';
import { casAlertState, findAlertState } from '../store/alert-store.js';
import type { AlertStateRow, ResultRow } from '../store/models.js';
import type { AnalyticsDeps } from './deps.js';
import { weakTopicsOf } from './results.js';
import { decideAlerts, type AlertDecision } from './weak-topics.js';

const MAX_CAS_ROUNDS = 8;

export const alertStateId = (organizationId: string | null, studentId: string) =>
  `${organizationId ?? ''}\u0000${studentId}`;

function nextState(r: ResultRow, current: AlertStateRow | null, d: AlertDecision, now: Date): AlertStateRow {
  return {
    _id: alertStateId(r.organizationId, r.studentId),
    studentId: r.studentId,
    organizationId: r.organizationId,
    alerting: d.alerting,
    version: (current?.version ?? 0) + 1,
    lastAttemptId: r._id,
    updatedAt: now,
  };
}

/** One round: read the state and the student's newest results, decide, compare-and-set. */
async function tryEvaluate(deps: AnalyticsDeps, r: ResultRow): Promise<boolean> {
  const current = await findAlertState(deps.models, alertStateId(r.organizationId, r.studentId));
  // A result without an organization is weighed with the student's other organization-less ones.
  const weak = await weakTopicsOf(deps, { studentId: r.studentId, organizationId: r.organizationId });
  const d = decideAlerts(current?.alerting ?? [], weak.items);
  if (!d.changed) return true;
  const next = nextState(r, current, d, deps.clock());
  // The event schema requires an organization; an organization-less result only moves the state.
  const announce = d.crossing.length > 0 && r.organizationId !== null;
  return deps.outbox.transaction((unit, session) => {
    const stamp = announce
      ? unit.enqueue({
          topic: WEAK_TOPIC_TOPIC,
          event: weakTopicDetected(
            {
              studentId: r.studentId,
              organizationId: r.organizationId!,
              attemptId: r._id,
              classroomId: r.classroomId,
              exam: { id: r.exam.id, title: r.exam.title },
              topics: d.crossing.map((t) => ({ ...t, shouldAlert: true as const })),
            },
            next.updatedAt,
            `${next._id.replace('\u0000', ':')}:${next.version}`,
          ),
          owner: deps.models.AlertState,
          ownerId: next._id,
          key: r.studentId,
        })
      : undefined;
    return casAlertState(deps.models, { expectedVersion: current?.version ?? 0, next, stamp }, session);
  });
}

/**
 * After a graded result: the student's weak topics that now cross the alert rule and had not
 * crossed at the last evaluation are announced once. The state and its event are one
 * single-document write, moved by compare-and-set, so a redelivery or a concurrent handler
 * recomputes against the moved state instead of announcing the same crossing twice.
 */
export async function evaluateAlerts(deps: AnalyticsDeps, r: ResultRow): Promise<void> {
  for (let round = 0; round < MAX_CAS_ROUNDS; round += 1) {
    if (await tryEvaluate(deps, r)) return;
  }
  throw new AppError('ALERT_STATE_CONFLICT', 'The alert state kept changing; the event will be retried');
}
