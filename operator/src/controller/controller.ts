import type { KubeConfig, V1Deployment } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { GROUP, PLURAL, VERSION, objectKey, type DocxImportJob } from '../api/docx-import-job.js';
import type { EventRecorder } from '../events.js';
import type { KubeClients } from '../kube/clients.js';
import { describeError } from '../kube/errors.js';
import { Reflector, type ReflectorOptions } from '../kube/reflector.js';
import type { OperatorMetrics } from '../metrics.js';
import type { QueueDepthReader } from '../queue-depth.js';
import { decide, withApplyFailure, type Decision } from './decide.js';
import { KeyedQueue } from './keyed-queue.js';
import { deploymentName, MANAGED_SELECTOR, ownerJobName } from './worker-deployment.js';
import { worthReconciling } from './status-rules.js';
import { StatusWriter } from './status-writer.js';
import { WriteMemo } from './write-memo.js';
import type { WorkerPolicy } from './worker-policy.js';
import { applyDeployment, NotLeadingError, readDeployment } from './writes.js';

export interface ControllerDeps {
  kc: KubeConfig;
  clients: KubeClients;
  depth: QueueDepthReader;
  events: EventRecorder;
  metrics: OperatorMetrics;
  logger: Logger;
  /** Watch one namespace, or all when undefined. */
  namespace?: string;
  resyncSeconds: number;
  /** Server-side lifetime of one watch; the watchdog bound follows from it. */
  watchTimeoutSec?: number;
  /** Least seconds between two status writes that would only move queue figures (0: no limit). */
  queueStatusIntervalSec?: number;
  /** Checked right before every write: false once leadership is lost or past its renew deadline. */
  mayWrite?: () => boolean;
  /** What a worker pod may be: the operator's settings and the bounds of the job's allow-list. */
  policy: WorkerPolicy;
}

/**
 * Level-based: every trigger (a DocxImportJob or owned Deployment event, a resync tick, a retry)
 * only enqueues the job's key; the reconcile reads the cached world and the queue depth, asks
 * decide() what it should be, and writes the difference.
 */
export class Controller {
  private jobs: Reflector<DocxImportJob>;
  private deployments: Reflector<V1Deployment>;
  private queue: KeyedQueue | undefined;
  private resync: NodeJS.Timeout | undefined;
  private readonly jobMemo = new WriteMemo<DocxImportJob>();
  private readonly deploymentMemo = new WriteMemo<V1Deployment>();
  private readonly status: StatusWriter;

  constructor(private readonly deps: ControllerDeps) {
    this.status = new StatusWriter({
      clients: deps.clients,
      metrics: deps.metrics,
      guard: (kind) => this.guard(kind),
      queueIntervalMs: (deps.queueStatusIntervalSec ?? 0) * 1000,
    });
    this.jobs = this.jobReflector();
    this.deployments = this.deploymentReflector();
  }

  get synced(): boolean {
    return this.jobs.hasSynced && this.deployments.hasSynced;
  }

  start(): void {
    if (this.queue) return;
    this.queue = new KeyedQueue((key) => this.reconcile(key), {
      onError: (key, err, attempt) =>
        this.deps.logger.warn({ key, attempt, err: describeError(err) }, 'reconcile failed; retrying'),
    });
    this.deployments.start();
    this.jobs.start();
    this.resync = setInterval(() => this.enqueueAll(), this.deps.resyncSeconds * 1000);
    this.deps.logger.info(
      { namespace: this.deps.namespace ?? '(all)', resyncSeconds: this.deps.resyncSeconds },
      'controller started',
    );
  }

  async stop(): Promise<void> {
    if (!this.queue) return;
    clearInterval(this.resync);
    this.jobs.stop();
    this.deployments.stop();
    await this.queue?.stop();
    this.queue = undefined;
    this.deps.logger.info('controller stopped');
  }

  private enqueueAll(): void {
    for (const key of this.jobs.keys()) this.queue?.enqueue(key);
  }

  /** One pass for one job; throwing makes the queue retry it with backoff. */
  async reconcile(key: string): Promise<void> {
    const stop = this.deps.metrics.reconcileSeconds.startTimer();
    try {
      const job = this.jobMemo.freshest(key, this.jobs.get(key));
      if (job && !job.metadata?.deletionTimestamp) await this.reconcileJob(key, job);
      this.deps.metrics.reconciles.inc({ result: 'ok' });
    } catch (err) {
      this.deps.metrics.reconciles.inc({ result: 'error' });
      throw err;
    } finally {
      stop();
    }
  }

  private async reconcileJob(key: string, job: DocxImportJob): Promise<void> {
    const dKey = `${job.metadata?.namespace ?? ''}/${deploymentName(job)}`;
    const cached = this.deploymentMemo.freshest(dKey, this.deployments.get(dKey));
    // The cache holds only Deployments with our label: before the first apply, make sure the name is
    // not taken by a foreign one, which decide() then leaves alone (an apply would take it over).
    const observed = cached ?? (await this.readByName(job));
    const depth = await this.deps.depth.read(key, job.spec.queue);
    const decision = decide(job, observed, depth, { now: new Date(), policy: this.deps.policy });
    const applyError = decision.deployment ? await this.apply(dKey, observed, decision) : undefined;
    if (applyError) {
      await this.writeStatus(
        key,
        job,
        withApplyFailure(decision.status, job.metadata?.generation, describeError(applyError), new Date()),
      );
      throw applyError;
    }
    await this.recordEvents(job, decision);
    await this.writeStatus(key, job, decision.status);
    this.observe(job, decision);
  }

  private async apply(dKey: string, observed: V1Deployment | undefined, decision: Decision): Promise<unknown> {
    this.guard('deployment');
    try {
      const applied = await applyDeployment(this.deps.clients, decision.deployment as V1Deployment);
      this.deploymentMemo.remember(dKey, observed, applied);
      return undefined;
    } catch (err) {
      this.deps.logger.warn({ deployment: dKey, err: describeError(err) }, 'worker Deployment apply failed');
      return err;
    }
  }

  private async readByName(job: DocxImportJob): Promise<V1Deployment | undefined> {
    return readDeployment(this.deps.clients, job.metadata?.namespace ?? '', deploymentName(job));
  }

  private async recordEvents(job: DocxImportJob, decision: Decision): Promise<void> {
    for (const event of decision.events) {
      this.guard('event');
      await this.deps.events.record(job, event);
      if (event.reason === 'ScaledUp' || event.reason === 'ScaledDown') {
        this.deps.metrics.scaleEvents.inc({ direction: event.reason === 'ScaledUp' ? 'up' : 'down' });
        this.deps.logger.info({ job: objectKey(job), message: event.message }, event.reason);
      }
    }
  }

  private async writeStatus(key: string, job: DocxImportJob, status: DocxImportJob['status']): Promise<void> {
    const updated = await this.status.write(key, job, status ?? {});
    if (updated) this.jobMemo.remember(key, job, updated);
  }

  // A deposed leader's in-flight reconcile must not write after a successor may have taken over.
  private guard(kind: string): void {
    if (!this.deps.mayWrite || this.deps.mayWrite()) return;
    this.deps.metrics.writesRefused.inc({ kind });
    throw new NotLeadingError(kind);
  }

  private observe(job: DocxImportJob, decision: Decision): void {
    const labels = { namespace: job.metadata?.namespace ?? '', name: job.metadata?.name ?? '' };
    const q = decision.status.queue;
    if (q) {
      this.deps.metrics.pending.set(labels, q.totalPending);
      this.deps.metrics.oldest.set(labels, q.oldestWaitingSeconds);
      if (q.deadLetters !== undefined) this.deps.metrics.deadLetters.set(labels, q.deadLetters);
    }
    this.deps.metrics.desired.set(labels, decision.status.desiredWorkers ?? 0);
  }

  private forgetJob(job: DocxImportJob): void {
    const key = objectKey(job);
    this.queue?.forget(key);
    this.jobMemo.forget(key);
    this.status.ledger.forget(key);
    this.deps.depth.forget(key);
    const labels = { namespace: job.metadata?.namespace ?? '', name: job.metadata?.name ?? '' };
    const { pending, oldest, desired, deadLetters } = this.deps.metrics;
    for (const g of [pending, oldest, desired, deadLetters]) g.remove(labels);
  }

  private jobReflector(): Reflector<DocxImportJob> {
    const { clients, namespace } = this.deps;
    const path = namespace
      ? `/apis/${GROUP}/${VERSION}/namespaces/${namespace}/${PLURAL}`
      : `/apis/${GROUP}/${VERSION}/${PLURAL}`;
    const list = async () =>
      (namespace
        ? await clients.custom.listNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURAL, namespace })
        : await clients.custom.listClusterCustomObject({ group: GROUP, version: VERSION, plural: PLURAL })) as {
        items: DocxImportJob[];
        metadata?: { resourceVersion?: string };
      };
    return this.reflector<DocxImportJob>({
      resource: 'docximportjobs',
      path,
      list,
      onUpsert: (job, previous) => {
        const key = objectKey(job);
        if (worthReconciling(previous, job, this.status.ledger.ownWrites(key))) this.queue?.enqueue(key);
      },
      onDelete: (job) => this.forgetJob(job),
    });
  }

  private deploymentReflector(): Reflector<V1Deployment> {
    const { clients, namespace } = this.deps;
    const path = namespace ? `/apis/apps/v1/namespaces/${namespace}/deployments` : '/apis/apps/v1/deployments';
    const list = () =>
      namespace
        ? clients.apps.listNamespacedDeployment({ namespace, labelSelector: MANAGED_SELECTOR })
        : clients.apps.listDeploymentForAllNamespaces({ labelSelector: MANAGED_SELECTOR });
    const toOwner = (d: V1Deployment): void => {
      const owner = ownerJobName(d);
      if (owner) this.queue?.enqueue(`${d.metadata?.namespace ?? ''}/${owner}`);
    };
    return this.reflector<V1Deployment>({
      resource: 'deployments',
      path,
      list,
      labelSelector: MANAGED_SELECTOR,
      onUpsert: toOwner,
      onDelete: (d) => {
        this.deploymentMemo.forget(objectKey(d));
        toOwner(d);
      },
    });
  }

  private reflector<T extends DocxImportJob | V1Deployment>(
    spec: Pick<ReflectorOptions<T>, 'path' | 'list' | 'labelSelector' | 'onUpsert' | 'onDelete'> & { resource: string },
  ): Reflector<T> {
    const { kc, logger, metrics } = this.deps;
    const { resource, ...rest } = spec;
    return new Reflector<T>({
      ...rest,
      kc,
      logger,
      watchTimeoutSec: this.deps.watchTimeoutSec,
      onRestart: (reason) => metrics.watchRestarts.inc({ resource, reason }),
      onWatch: () => metrics.apiRequests.inc({ verb: 'watch', resource }),
    });
  }
}
