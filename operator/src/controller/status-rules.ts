import { isDeepStrictEqual } from 'node:util';
import type { DocxImportJob, DocxImportJobStatus } from '../api/docx-import-job.js';

// Pure rules for the operator's status writes: which watch events deserve a reconcile, and when a
// changed status is written now, later, or not at all. Time is an argument, never read here.

/**
 * Whether a DocxImportJob watch event should enqueue a reconcile. The operator's own status patch
 * comes back as a MODIFIED event; reconciling on it would read the queue again and, with workers
 * committing, write again: a loop paced only by round trips. Spec changes (generation), deletion and
 * a status someone else wrote still count; our own echo and metadata-only changes do not.
 */
export function worthReconciling(
  previous: DocxImportJob | undefined,
  next: DocxImportJob,
  ownWrites: readonly DocxImportJobStatus[],
): boolean {
  if (!previous || identityMoved(previous, next)) return true;
  const status = next.status ?? {};
  if (isDeepStrictEqual(previous.status ?? {}, status)) return false;
  return !ownWrites.some((w) => isDeepStrictEqual(w, status));
}

// A new object under the same name, a spec change, or a deletion starting.
function identityMoved(previous: DocxImportJob, next: DocxImportJob): boolean {
  const p = previous.metadata ?? {};
  const n = next.metadata ?? {};
  if (p.uid !== n.uid || p.generation !== n.generation) return true;
  return String(p.deletionTimestamp ?? '') !== String(n.deletionTimestamp ?? '');
}

/**
 * The status with what only follows the queue taken out: the queue figures and the condition
 * messages that quote them. What is left (replicas, generation, condition status and reason,
 * scale times) is never delayed.
 */
function withoutQueueFigures(status: DocxImportJobStatus): unknown {
  const { queue: _queue, conditions, ...rest } = status;
  return { ...rest, conditions: (conditions ?? []).map(({ message: _message, ...c }) => c) };
}

export type StatusVerdict = 'unchanged' | 'write' | 'defer';

export interface StatusWriteInput {
  current: DocxImportJobStatus | undefined;
  next: DocxImportJobStatus;
  /** When this object's status was last written (ms), undefined if never by this process. */
  lastWriteAt: number | undefined;
  now: number;
  /** Least time between two writes that only move queue figures. */
  queueIntervalMs: number;
}

/**
 * 'write' at once for any change beyond the queue figures; a queue-only change waits until
 * queueIntervalMs after the last write ('defer': a later reconcile writes the then-current figures).
 */
export function statusVerdict(input: StatusWriteInput): StatusVerdict {
  const current = input.current ?? {};
  if (isDeepStrictEqual(current, input.next)) return 'unchanged';
  if (!isDeepStrictEqual(withoutQueueFigures(current), withoutQueueFigures(input.next))) return 'write';
  if (input.lastWriteAt === undefined || input.now - input.lastWriteAt >= input.queueIntervalMs) return 'write';
  return 'defer';
}

interface Ledger {
  at?: number;
  /** The latest statuses sent or stored, newest last. */
  recent: DocxImportJobStatus[];
}

/**
 * An echo can arrive before the write's own response, or after the next write was sent: a few
 * recent statuses are kept, not only the last one.
 */
const RECENT = 4;

/** What this process wrote to each job's status, and when: the memory both rules need. */
export class StatusLedger {
  private readonly entries = new Map<string, Ledger>();

  /** Before sending: the echo may beat the response. */
  sending(key: string, status: DocxImportJobStatus): void {
    this.remember(key, status);
  }

  /** After the server stored it (as it returned it), at the time the write was decided. */
  record(key: string, status: DocxImportJobStatus, at: number): void {
    this.remember(key, status).at = at;
  }

  lastWriteAt(key: string): number | undefined {
    return this.entries.get(key)?.at;
  }

  ownWrites(key: string): readonly DocxImportJobStatus[] {
    return this.entries.get(key)?.recent ?? [];
  }

  private remember(key: string, status: DocxImportJobStatus): Ledger {
    const entry = this.entries.get(key) ?? { recent: [] };
    entry.recent = [...entry.recent, status].slice(-RECENT);
    this.entries.set(key, entry);
    return entry;
  }

  forget(key: string): void {
    this.entries.delete(key);
  }
}
