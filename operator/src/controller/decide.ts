import type { V1Deployment } from '@kubernetes/client-node';
import type { Condition, DocxImportJob, DocxImportJobStatus, QueueStatus } from '../api/docx-import-job.js';
import type { QueueReading } from '../queue-lag.js';
import * as C from './conditions.js';
import { limitCondition } from './limit-condition.js';
import { nextReplicas, targetWorkers, type ScaleStep, type Target } from './scaling.js';
import { deploymentName, desiredDeployment, isControlledBy, needsApply, workerTemplate } from './worker-deployment.js';
import type { WorkerPolicy } from './worker-policy.js';

export interface JobEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

export interface Decision {
  /** The Deployment to apply, or null when the observed one is already what we want (or must not be touched). */
  deployment: V1Deployment | null;
  status: DocxImportJobStatus;
  events: JobEvent[];
}

interface Step extends ScaleStep {
  created: boolean;
  target?: Target;
}

/**
 * The whole reconcile decision, pure: no clock, no environment, no I/O. The controller reads the
 * world, calls this, and writes what it returns.
 */
export function decide(
  job: DocxImportJob,
  observed: V1Deployment | undefined,
  depth: QueueReading,
  { now, policy }: { now: Date; policy: WorkerPolicy },
): Decision {
  if (observed && !isControlledBy(observed, job)) return conflict(job, now);
  const template = workerTemplate(job, policy);
  if (!template.ok) return rejected(job, template.problems, now);
  const step = planStep(job, observed, depth, now);
  const desired = desiredDeployment(job, step.replicas, template.template);
  const status = buildStatus({ job, observed, depth, now }, step);
  const events = [...scalingEvents(job, observed, step, depth), ...queueEvents(job, depth)];
  return { deployment: needsApply(observed, desired) ? desired : null, status, events };
}

function planStep(job: DocxImportJob, observed: V1Deployment | undefined, depth: QueueReading, now: Date): Step {
  const { scaling } = job.spec;
  const clock = { lastScaleTime: job.status?.lastScaleTime, scaleDownPendingSince: job.status?.scaleDownPendingSince };
  const current = observed?.spec?.replicas;
  // A failed reading says nothing about the queue: keep what runs (or the floor, for a new Deployment).
  if (!depth.ok) {
    return { ...clock, replicas: current ?? scaling.minWorkers, direction: 'none', created: current === undefined };
  }
  const target = targetWorkers(scaling, depth.totalPending, depth.partitions);
  if (current === undefined) {
    return { replicas: target.target, direction: 'none', created: true, target, lastScaleTime: C.formatTime(now) };
  }
  return { ...nextReplicas(scaling, { current, target: target.target }, clock, now), created: false, target };
}

interface Inputs {
  job: DocxImportJob;
  observed: V1Deployment | undefined;
  depth: QueueReading;
  now: Date;
}

function buildStatus({ job, observed, depth, now }: Inputs, step: Step): DocxImportJobStatus {
  const generation = job.metadata?.generation;
  const readyWorkers = observed?.status?.readyReplicas ?? 0;
  const queue = depth.ok ? queueStatus(depth, readyWorkers * job.spec.worker.concurrency) : job.status?.queue;
  let conditions = job.status?.conditions ?? [];
  for (const c of stepConditions(job, depth, step, readyWorkers)) conditions = C.setCondition(conditions, c, now);
  return compact({
    observedGeneration: generation,
    queue,
    desiredWorkers: step.replicas,
    readyWorkers,
    workerDeployment: deploymentName(job),
    lastScaleTime: step.lastScaleTime,
    scaleDownPendingSince: step.scaleDownPendingSince,
    conditions,
  });
}

function queueStatus(reading: QueueReading & { ok: true }, capacity: number): QueueStatus {
  const { totalPending, oldestWaitingSeconds, partitions, deadLetters } = reading;
  const active = Math.min(totalPending, capacity);
  const queue: QueueStatus = { totalPending, active, waiting: totalPending - active, oldestWaitingSeconds };
  return {
    ...queue,
    ...(partitions === undefined ? {} : { partitions }),
    ...(deadLetters === undefined ? {} : { deadLetters }),
  };
}

function stepConditions(job: DocxImportJob, depth: QueueReading, step: Step, ready: number): C.ConditionInput[] {
  const g = job.metadata?.generation;
  const name = deploymentName(job);
  const workers: C.ConditionInput =
    ready >= step.replicas
      ? {
          type: C.CONDITION_WORKERS,
          status: 'True',
          reason: C.REASON_WORKERS_READY,
          message: `${ready}/${step.replicas} workers ready`,
          observedGeneration: g,
        }
      : {
          type: C.CONDITION_WORKERS,
          status: 'False',
          reason: C.REASON_WORKERS_PENDING,
          message: `${ready}/${step.replicas} workers ready`,
          observedGeneration: g,
        };
  if (!depth.ok) {
    return [
      {
        type: C.CONDITION_READY,
        status: 'False',
        reason: C.REASON_QUEUE_UNAVAILABLE,
        message: `Queue depth unknown; keeping ${name} at ${step.replicas} replicas`,
        observedGeneration: g,
      },
      {
        type: C.CONDITION_QUEUE_DEPTH,
        status: 'False',
        reason: depth.reason,
        message: depth.message,
        observedGeneration: g,
      },
      workers,
    ];
  }
  const { topic, consumerGroup } = job.spec.queue;
  return [
    {
      type: C.CONDITION_READY,
      status: 'True',
      reason: C.REASON_RECONCILED,
      message: `${name} at ${step.replicas} replicas for ${depth.totalPending} pending jobs`,
      observedGeneration: g,
    },
    {
      type: C.CONDITION_QUEUE_DEPTH,
      status: 'True',
      reason: C.REASON_QUEUE_READ,
      message: `Lag of group ${consumerGroup} on ${topic}: ${depth.totalPending}`,
      observedGeneration: g,
    },
    workers,
    limitCondition(job, step.target, depth.partitions),
  ];
}

function scalingEvents(
  job: DocxImportJob,
  observed: V1Deployment | undefined,
  step: Step,
  depth: QueueReading,
): JobEvent[] {
  const name = deploymentName(job);
  const why = depth.ok ? `: ${depth.totalPending} jobs pending, ${job.spec.scaling.jobsPerWorker} per worker` : '';
  if (step.created) {
    return [
      {
        type: 'Normal',
        reason: 'WorkersCreated',
        message: `Created worker Deployment ${name} with ${step.replicas} replicas${why}`,
      },
    ];
  }
  if (step.direction === 'none') return [];
  const from = observed?.spec?.replicas ?? 0;
  const reason = step.direction === 'up' ? 'ScaledUp' : 'ScaledDown';
  return [{ type: 'Normal', reason, message: `Scaled ${name} from ${from} to ${step.replicas} replicas${why}` }];
}

// Warn once per outage, on the transition, not on every resync while Kafka stays down.
function queueEvents(job: DocxImportJob, depth: QueueReading): JobEvent[] {
  if (depth.ok) return [];
  const before = C.findCondition(job.status?.conditions, C.CONDITION_QUEUE_DEPTH);
  if (before?.status === 'False') return [];
  return [
    { type: 'Warning', reason: C.REASON_QUEUE_UNAVAILABLE, message: `Keeping current workers: ${depth.message}` },
  ];
}

/** A Deployment of the worker's name that this job does not control: left alone, and said so. */
function conflict(job: DocxImportJob, now: Date): Decision {
  const message = `Deployment ${deploymentName(job)} exists and is not controlled by this DocxImportJob; leaving it alone`;
  return refusal(job, C.REASON_DEPLOYMENT_CONFLICT, message, now);
}

/** A worker template asking for more than the allow-list: no Deployment change, the reasons in status. */
function rejected(job: DocxImportJob, problems: string[], now: Date): Decision {
  const listed = problems.join('; ');
  const message = `Worker template refused, the worker Deployment is left as it is: ${
    listed.length > 900 ? `${listed.slice(0, 900)}...` : listed
  }`;
  return refusal(job, C.REASON_TEMPLATE_REJECTED, message, now);
}

// Ready=False with `reason`, a Warning on the transition only (not on every resync).
function refusal(job: DocxImportJob, reason: string, message: string, now: Date): Decision {
  const before = C.findCondition(job.status?.conditions, C.CONDITION_READY);
  const conditions = C.setCondition(
    job.status?.conditions,
    { type: C.CONDITION_READY, status: 'False', reason, message, observedGeneration: job.metadata?.generation },
    now,
  );
  const status = compact({ ...job.status, observedGeneration: job.metadata?.generation, conditions });
  const events: JobEvent[] =
    before?.reason === reason && before.message === message ? [] : [{ type: 'Warning', reason, message }];
  return { deployment: null, status, events };
}

/** The status after a failed Deployment write: the decision stands, Ready says why it is not applied. */
export function withApplyFailure(
  status: DocxImportJobStatus,
  generation: number | undefined,
  message: string,
  now: Date,
): DocxImportJobStatus {
  const conditions: Condition[] = C.setCondition(
    status.conditions,
    {
      type: C.CONDITION_READY,
      status: 'False',
      reason: C.REASON_APPLY_FAILED,
      message,
      observedGeneration: generation,
    },
    now,
  );
  return { ...status, conditions };
}

// The API server drops undefined keys, so a status compared with its stored copy must not carry them.
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
