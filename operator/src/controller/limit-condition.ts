import type { DocxImportJob } from '../api/docx-import-job.js';
import * as C from './conditions.js';
import { workerCeiling, type Target } from './scaling.js';

/**
 * ScalingLimited: True when the workers are bounded by something other than the queue. A topic with
 * fewer partitions than maxWorkers is a standing fact of the configuration (workers beyond the
 * partitions would idle), so PartitionLimit is reported whatever the queue asks for at the moment.
 */
export function limitCondition(
  job: DocxImportJob,
  target: Target | undefined,
  partitions: number | undefined,
): C.ConditionInput {
  const { minWorkers, maxWorkers } = job.spec.scaling;
  const base = { type: C.CONDITION_SCALING_LIMITED, observedGeneration: job.metadata?.generation };
  const ceiling = workerCeiling(job.spec.scaling, partitions);
  if (ceiling < maxWorkers) {
    const asks = target && target.wanted > ceiling ? `The queue asks for ${target.wanted} workers; ` : '';
    return {
      ...base,
      status: 'True',
      reason: C.REASON_PARTITION_LIMIT,
      message: `${asks}maxWorkers ${maxWorkers} exceeds the ${partitions} partitions of ${job.spec.queue.topic}; scaling stops at ${ceiling}`,
    };
  }
  if (!target?.limitedBy) {
    return {
      ...base,
      status: 'False',
      reason: C.REASON_WITHIN_BOUNDS,
      message: `Between ${minWorkers} and ${maxWorkers} workers`,
    };
  }
  const atMax = target.limitedBy === 'max';
  return {
    ...base,
    status: 'True',
    reason: atMax ? C.REASON_AT_MAX : C.REASON_AT_MIN,
    message: `The queue asks for ${target.wanted} workers; ${atMax ? `maxWorkers is ${maxWorkers}` : `minWorkers is ${minWorkers}`}`,
  };
}
