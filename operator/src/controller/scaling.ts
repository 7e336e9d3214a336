import type { ScalingSpec } from '../api/docx-import-job.js';
import { formatTime } from './conditions.js';

export interface Target {
  target: number;
  /** What the queue alone would ask for, before the bounds. */
  wanted: number;
  limitedBy?: 'max' | 'min';
}

/** Workers the queue asks for: one per jobsPerWorker pending jobs, within [minWorkers, maxWorkers]. */
export function targetWorkers(scaling: ScalingSpec, totalPending: number): Target {
  const wanted = Math.ceil(Math.max(0, totalPending) / scaling.jobsPerWorker);
  if (wanted > scaling.maxWorkers) return { target: scaling.maxWorkers, wanted, limitedBy: 'max' };
  if (wanted < scaling.minWorkers) return { target: scaling.minWorkers, wanted, limitedBy: 'min' };
  return { target: wanted, wanted };
}

/** The scale-down clock, persisted in status so that an operator restart does not reset it. */
export interface ScaleClock {
  lastScaleTime?: string;
  scaleDownPendingSince?: string;
}

export interface ScaleStep extends ScaleClock {
  replicas: number;
  direction: 'up' | 'down' | 'none';
}

/**
 * Up at once; down only after fewer workers have sufficed for the whole delay (counted from the
 * later of "first seen lower" and the last scale), and then by at most one step, so a queue that
 * drains and refills within the delay never costs a worker restart.
 */
export function nextReplicas(
  scaling: ScalingSpec,
  replicas: { current: number; target: number },
  clock: ScaleClock,
  now: Date,
): ScaleStep {
  const { current, target } = replicas;
  if (target > current) {
    return { replicas: target, direction: 'up', lastScaleTime: formatTime(now) };
  }
  if (target === current) {
    return { replicas: current, direction: 'none', lastScaleTime: clock.lastScaleTime };
  }
  const pendingSince = clock.scaleDownPendingSince ?? formatTime(now);
  const waitFrom = Math.max(Date.parse(pendingSince), clock.lastScaleTime ? Date.parse(clock.lastScaleTime) : 0);
  if (now.getTime() < waitFrom + scaling.scaleDownDelaySeconds * 1000) {
    return {
      replicas: current,
      direction: 'none',
      lastScaleTime: clock.lastScaleTime,
      scaleDownPendingSince: pendingSince,
    };
  }
  const next = Math.max(target, current - scaling.scaleDownStep);
  return {
    replicas: next,
    direction: 'down',
    lastScaleTime: formatTime(now),
    scaleDownPendingSince: next > target ? pendingSince : undefined,
  };
}
