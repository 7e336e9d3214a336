import type { ScalingSpec } from '../api/docx-import-job.js';
import { formatTime } from './conditions.js';

export interface Target {
  target: number;
  /** What the queue alone would ask for, before the bounds. */
  wanted: number;
  limitedBy?: 'max' | 'min' | 'partitions';
}

/**
 * The most workers that can have work: maxWorkers, or the topic's partition count when lower (a
 * consumer group gives each partition to one member; members beyond the partitions idle).
 * An unknown count (undefined, or a topic without partitions) caps nothing.
 */
export function workerCeiling(scaling: Pick<ScalingSpec, 'maxWorkers'>, partitions: number | undefined): number {
  return partitions !== undefined && partitions >= 1 ? Math.min(scaling.maxWorkers, partitions) : scaling.maxWorkers;
}

/**
 * Workers the queue asks for: one per jobsPerWorker pending jobs, within [minWorkers, ceiling]
 * where the ceiling is min(maxWorkers, partitions); the ceiling wins over minWorkers.
 */
export function targetWorkers(scaling: ScalingSpec, totalPending: number, partitions?: number): Target {
  const wanted = Math.ceil(Math.max(0, totalPending) / scaling.jobsPerWorker);
  const ceiling = workerCeiling(scaling, partitions);
  const limit = ceiling < scaling.maxWorkers ? 'partitions' : 'max';
  if (wanted > ceiling) return { target: ceiling, wanted, limitedBy: limit };
  if (wanted < scaling.minWorkers) {
    const floor = Math.min(scaling.minWorkers, ceiling);
    return { target: floor, wanted, limitedBy: floor < scaling.minWorkers ? 'partitions' : 'min' };
  }
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
