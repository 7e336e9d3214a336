import type { CoordinationV1Api, V1Lease } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { leaseAction, leaseFor, observe, releasedLease, type Observation } from './lease.js';
import { isNotFound } from './kube/errors.js';

export interface LeaderOptions {
  namespace: string;
  name: string;
  identity: string;
  durationSec: number;
  /** A leader that could not renew for this long steps down before its lease can be taken. */
  renewDeadlineSec: number;
  retrySec: number;
  onStartedLeading: () => void;
  onStoppedLeading: () => void;
  logger: Logger;
}

/**
 * Lease-based leader election. Steps down (and may lead again later) rather than exiting, so an
 * API server restart costs a pause in reconciling, not the process.
 */
export class LeaderElector {
  private leading = false;
  private lastRenew = 0;
  private seen: Observation | undefined;
  /** The lease as our last successful write returned it: renewals need no read while it holds. */
  private mine: V1Lease | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private inFlight: Promise<void> | undefined;
  private rounds = 0;

  constructor(
    private readonly api: CoordinationV1Api,
    private readonly opts: LeaderOptions,
  ) {}

  get isLeader(): boolean {
    return this.leading;
  }

  start(): void {
    this.stopped = false;
    this.loop();
  }

  /** Stops campaigning and, if leading, releases the lease. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.inFlight;
    if (this.leading && this.mine) {
      await this.api
        .replaceNamespacedLease({
          name: this.opts.name,
          namespace: this.opts.namespace,
          body: releasedLease(this.mine, new Date()),
        })
        .catch((err: unknown) => this.opts.logger.warn({ err }, 'could not release the leader lease'));
    }
    this.setLeading(false);
  }

  private loop(): void {
    if (this.stopped) return;
    this.inFlight = this.tick().finally(() => {
      this.inFlight = undefined;
      if (!this.stopped) this.timer = setTimeout(() => this.loop(), this.opts.retrySec * 1000);
    });
  }

  private async tick(): Promise<void> {
    try {
      await withTimeout(this.attempt(), (this.opts.renewDeadlineSec * 1000) / 2);
    } catch (err) {
      this.mine = undefined; // a conflict or an outage: read the lease afresh next time
      this.opts.logger.debug({ err }, 'leader lease attempt failed');
      if (this.leading && Date.now() - this.lastRenew > this.opts.renewDeadlineSec * 1000) {
        this.opts.logger.warn('could not renew the leader lease in time; stepping down');
        this.setLeading(false);
      }
    }
  }

  // One read-decide-write round; bounded by tick() so that one hung request cannot use up the
  // whole renew deadline (the next attempt opens a fresh connection).
  private async attempt(): Promise<void> {
    const round = ++this.rounds;
    const lease = this.leading && this.mine ? this.mine : await this.read();
    const now = Date.now();
    if (round !== this.rounds) return; // timed out meanwhile: a newer round owns the state
    this.seen = observe(this.seen, lease, now);
    const action = leaseAction(lease, this.opts.identity, this.seen, now);
    if (action.kind === 'wait') {
      if (this.leading) this.opts.logger.warn({ holder: action.holder }, 'leader lease taken by another instance');
      this.setLeading(false);
      return;
    }
    const written = await this.write(action.kind, lease);
    if (round !== this.rounds) return;
    this.mine = written;
    this.lastRenew = Date.now();
    this.setLeading(true);
  }

  private async read(): Promise<V1Lease | undefined> {
    try {
      return await this.api.readNamespacedLease({ name: this.opts.name, namespace: this.opts.namespace });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  private write(kind: 'create' | 'renew' | 'takeover', lease: V1Lease | undefined): Promise<V1Lease> {
    const { namespace, name, identity, durationSec } = this.opts;
    const body = leaseFor(kind, lease, { identity, durationSec }, new Date());
    if (kind === 'create') {
      return this.api.createNamespacedLease({ namespace, body: { ...body, metadata: { name, namespace } } });
    }
    return this.api.replaceNamespacedLease({ name, namespace, body });
  }

  private setLeading(leading: boolean): void {
    if (leading === this.leading) return;
    this.leading = leading;
    this.opts.logger.info({ identity: this.opts.identity }, leading ? 'started leading' : 'stopped leading');
    if (leading) this.opts.onStartedLeading();
    else this.opts.onStoppedLeading();
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`lease request took longer than ${ms} ms`)), ms);
  });
  work.catch(() => undefined);
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
