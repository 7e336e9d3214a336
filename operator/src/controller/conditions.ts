import type { Condition } from '../api/docx-import-job.js';

// Condition types and reasons are API: dashboards and `kubectl wait --for=condition=...` key on them.
export const CONDITION_READY = 'Ready';
export const CONDITION_QUEUE_DEPTH = 'QueueDepthAvailable';
export const CONDITION_WORKERS = 'WorkersAvailable';
export const CONDITION_SCALING_LIMITED = 'ScalingLimited';

export const REASON_RECONCILED = 'Reconciled';
export const REASON_QUEUE_READ = 'LagRead';
export const REASON_QUEUE_UNAVAILABLE = 'QueueDepthUnavailable';
export const REASON_DEPLOYMENT_CONFLICT = 'DeploymentConflict';
export const REASON_APPLY_FAILED = 'DeploymentApplyFailed';
export const REASON_TEMPLATE_REJECTED = 'WorkerTemplateRejected';
export const REASON_WORKERS_READY = 'WorkersReady';
export const REASON_WORKERS_PENDING = 'WorkersNotReady';
export const REASON_AT_MAX = 'MaxWorkersReached';
export const REASON_AT_MIN = 'MinWorkersHeld';
export const REASON_WITHIN_BOUNDS = 'WithinBounds';
/** maxWorkers exceeds the work topic's partitions: scaling stops at the partition count. */
export const REASON_PARTITION_LIMIT = 'PartitionLimit';

export type ConditionInput = Omit<Condition, 'lastTransitionTime'>;

/**
 * Returns a new list with `input` set. lastTransitionTime moves only when the status flips, as the
 * API conventions require; reason, message and observedGeneration always take the new values.
 */
export function setCondition(
  conditions: readonly Condition[] | undefined,
  input: ConditionInput,
  now: Date,
): Condition[] {
  const list = conditions ?? [];
  const previous = list.find((c) => c.type === input.type);
  const lastTransitionTime =
    previous && previous.status === input.status ? previous.lastTransitionTime : formatTime(now);
  const next: Condition = { ...input, lastTransitionTime };
  return previous ? list.map((c) => (c.type === input.type ? next : c)) : [...list, next];
}

export function findCondition(conditions: readonly Condition[] | undefined, type: string): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

export function isConditionTrue(conditions: readonly Condition[] | undefined, type: string): boolean {
  return findCondition(conditions, type)?.status === 'True';
}

/** metav1.Time: RFC 3339 at second precision. */
export function formatTime(at: Date): string {
  return `${at.toISOString().slice(0, 19)}Z`;
}
