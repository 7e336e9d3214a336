import type { DocxImportJob, DocxImportJobStatus } from '../api/docx-import-job.js';
import type { KubeClients } from '../kube/clients.js';
import type { OperatorMetrics } from '../metrics.js';
import { StatusLedger, statusVerdict } from './status-rules.js';
import { patchStatus } from './writes.js';

export interface StatusWriterDeps {
  clients: KubeClients;
  metrics: OperatorMetrics;
  /** Throws when this process may no longer write (leadership lost or past its renew deadline). */
  guard: (what: string) => void;
  queueIntervalMs: number;
  now?: () => number;
}

/**
 * The one path to a DocxImportJob's status: skips an unchanged status (a quiet queue costs no
 * write), holds back a change that only moves queue figures until the interval since the last write
 * has passed, and remembers what it wrote so the watch echo of that write is recognised.
 */
export class StatusWriter {
  readonly ledger = new StatusLedger();
  private readonly now: () => number;

  constructor(private readonly deps: StatusWriterDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Returns the job as the server stored it after a write, undefined when nothing was written. */
  async write(key: string, job: DocxImportJob, status: DocxImportJobStatus): Promise<DocxImportJob | undefined> {
    const now = this.now();
    const verdict = statusVerdict({
      current: job.status,
      next: status,
      lastWriteAt: this.ledger.lastWriteAt(key),
      now,
      queueIntervalMs: this.deps.queueIntervalMs,
    });
    if (verdict === 'unchanged') return undefined;
    if (verdict === 'defer') {
      this.deps.metrics.statusWrites.inc({ result: 'deferred' });
      return undefined;
    }
    this.deps.guard('status');
    this.ledger.sending(key, status);
    const updated = await patchStatus(this.deps.clients, job, status);
    this.ledger.record(key, updated.status ?? status, now);
    this.deps.metrics.statusWrites.inc({ result: 'written' });
    return updated;
  }
}
