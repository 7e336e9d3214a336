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
  lastWritten: DocxImportJobStatus | undefined,
): boolean {
  if (!previous || identityMoved(previous, next)) return true;
  const status = next.status ?? {};
  if (isDeepStrictEqual(previous.status ?? {}, status)) return false;
  return !(lastWritten !== undefined && isDeepStrictEqual(lastWritten, status));
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
  at: number;
  status: DocxImportJobStatus;
}

/** What this process last wrote to each job's status, and when: the memory both rules need. */
export class StatusLedger {
  private readonly entries = new Map<string, Ledger>();

  record(key: string, status: DocxImportJobStatus, at: number): void {
    this.entries.set(key, { at, status });
  }

  lastWriteAt(key: string): number | undefined {
    return this.entries.get(key)?.at;
  }

  lastWritten(key: string): DocxImportJobStatus | undefined {
    return this.entries.get(key)?.status;
  }

  forget(key: string): void {
    this.entries.delete(key);
  }
}
