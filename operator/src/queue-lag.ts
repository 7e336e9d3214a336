// Pure arithmetic over Kafka offsets: what the consumer group has not committed is the queue.

export type QueueReading =
  | {
      ok: true;
      totalPending: number;
      oldestWaitingSeconds: number;
      /** The topic's partition count: the most consumers of one group that can have work. */
      partitions?: number;
      /** Messages kept in the queue's dead-letter topic (`<topic>.dlq`); absent when it cannot be read. */
      deadLetters?: number;
    }
  | { ok: false; reason: string; message: string };

export interface TopicPartitionOffsets {
  partition: number;
  /** High watermark: the offset the next message will get. */
  high: string;
  low: string;
}

export interface CommittedOffset {
  partition: number;
  /** '-1' when the group has never committed on the partition. */
  offset: string;
}

export interface PartitionLag {
  partition: number;
  /** First offset not yet committed. */
  next: number;
  high: number;
  lag: number;
}

/**
 * A group that never committed (a fresh worker fleet) has everything from the low watermark still
 * to do, and retention may have deleted offsets a slow group still points at: both start at `low`.
 */
export function partitionLags(
  topic: readonly TopicPartitionOffsets[],
  committed: readonly CommittedOffset[],
): PartitionLag[] {
  const byPartition = new Map(committed.map((c) => [c.partition, Number(c.offset)]));
  return topic.map((p) => {
    const high = Number(p.high);
    const low = Number(p.low);
    const done = byPartition.get(p.partition) ?? -1;
    const next = Math.min(high, Math.max(done < 0 ? low : done, low));
    return { partition: p.partition, next, high, lag: high - next };
  });
}

export function totalLag(lags: readonly PartitionLag[]): number {
  return lags.reduce((sum, p) => sum + p.lag, 0);
}

interface Sample {
  /** High watermark when first seen. */
  high: number;
  seenAt: number;
}

/** Samples kept per partition; beyond it the middle ones merge away, the oldest is always kept. */
const MAX_SAMPLES = 256;

/**
 * Kafka's admin API gives offsets, not message times, and fetching the oldest message would need a
 * consumer per queue. Instead each partition keeps when each high watermark was first seen: the
 * oldest pending message arrived no later than the first sample past it, so its age is a lower
 * bound, exact to the polling period.
 */
export class ArrivalLog {
  private readonly samples = new Map<number, Sample[]>();

  /** Records the high watermarks seen at `now` (milliseconds). */
  record(lags: readonly PartitionLag[], now: number): void {
    for (const p of lags) {
      const list = this.samples.get(p.partition) ?? [];
      const last = list[list.length - 1];
      if (!last || p.high > last.high) list.push({ high: p.high, seenAt: now });
      this.samples.set(p.partition, prune(list, p.next));
    }
  }

  /** Seconds the oldest uncommitted message has waited, over all partitions; 0 when none waits. */
  oldestPendingSeconds(lags: readonly PartitionLag[], now: number): number {
    let oldest = now;
    for (const p of lags) {
      if (p.lag <= 0) continue;
      const first = (this.samples.get(p.partition) ?? []).find((s) => s.high > p.next);
      if (first) oldest = Math.min(oldest, first.seenAt);
    }
    return Math.max(0, Math.floor((now - oldest) / 1000));
  }
}

// Samples at or below the committed offset describe messages already done.
function prune(list: Sample[], next: number): Sample[] {
  const live = list.filter((s) => s.high > next);
  while (live.length > MAX_SAMPLES) live.splice(1, 1);
  return live;
}

/**
 * One ArrivalLog per DocxImportJob. A log shared by topic would be pruned at the fastest group's
 * committed offset, so a second job on the same topic with a slower group would lose the samples
 * that date its own oldest message; and a job whose queue moves to another topic or group starts over.
 */
export class ArrivalLogs {
  private readonly logs = new Map<string, { queue: string; log: ArrivalLog }>();

  for(owner: string, queue: { topic: string; consumerGroup: string }): ArrivalLog {
    const id = `${queue.topic}\n${queue.consumerGroup}`;
    const known = this.logs.get(owner);
    if (known?.queue === id) return known.log;
    const log = new ArrivalLog();
    this.logs.set(owner, { queue: id, log });
    return log;
  }

  forget(owner: string): void {
    this.logs.delete(owner);
  }

  get size(): number {
    return this.logs.size;
  }
}
