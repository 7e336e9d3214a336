import type { CoreV1Api, CoreV1Event } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { API_VERSION, KIND, type DocxImportJob } from './api/docx-import-job.js';
import type { JobEvent } from './controller/decide.js';

export const COMPONENT = 'docx-import-operator';

/** core/v1 Events on the DocxImportJob, so `kubectl describe dij` and `kubectl get events` show scaling. */
export class EventRecorder {
  private sequence = 0;

  constructor(
    private readonly core: CoreV1Api,
    private readonly instance: string,
    private readonly logger: Logger,
  ) {}

  /** Never throws: a lost Event must not fail the reconcile that already changed the world. */
  async record(job: DocxImportJob, event: JobEvent, now = new Date()): Promise<boolean> {
    const namespace = job.metadata?.namespace ?? 'default';
    try {
      await this.core.createNamespacedEvent({ namespace, body: this.eventFor(job, event, now) });
      return true;
    } catch (err) {
      this.logger.warn({ err: String(err), reason: event.reason, job: job.metadata?.name }, 'could not record event');
      return false;
    }
  }

  eventFor(job: DocxImportJob, event: JobEvent, now: Date): CoreV1Event {
    const name = job.metadata?.name ?? '';
    // client-go names events <object>.<unix nanos in hex>; a sequence keeps two in one millisecond apart.
    const suffix = (BigInt(now.getTime()) * 1_000_000n + BigInt(this.sequence++ % 1_000_000)).toString(16);
    return {
      metadata: { name: `${name}.${suffix}`, namespace: job.metadata?.namespace },
      involvedObject: {
        apiVersion: API_VERSION,
        kind: KIND,
        name,
        namespace: job.metadata?.namespace,
        uid: job.metadata?.uid,
        resourceVersion: job.metadata?.resourceVersion,
      },
      type: event.type,
      reason: event.reason,
      message: event.message,
      action: event.reason,
      count: 1,
      firstTimestamp: now,
      lastTimestamp: now,
      source: { component: COMPONENT },
      reportingComponent: COMPONENT,
      reportingInstance: this.instance,
    };
  }
}
