import type { CoordinationV1Api, V1Lease } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { withTimeout } from '../../services/kit/src/core/timing.js';
import { leaseAction, leaseFor, observe, releasedLease, stillLeading, type Observation } from './lease.js';
import { isNotFound } from './kube/errors.js';

export interface LeaderOptions {
  namespace: string;
  name: string;
  identity: string;
  durationSec: number;
  /**
   * A leader that could not renew for this long (counted from when its last successful renewal was
   * sent) steps down, before its lease can be taken; must be below durationSec.
   */
  renewDeadlineMs: number;
  retryMs: number;
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
  /** When the last successful create/renew/takeover was sent (ms). */
  private renewSentAt: number | undefined;
  private deadline: NodeJS.Timeout | undefined;
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
  ) {
    if (opts.renewDeadlineMs >= opts.durationSec * 1000) {
      throw new Error('the renew deadline must be shorter than the lease duration');
    }
  }

  get isLeader(): boolean {
    return this.leading;
  }

  /**
   * Whether a write may be sent now: leading, and the last renewal younger than the renew deadline.
   * Read by value at each write, so it holds even while the step-down timer is still pending.
   */
  mayWrite(now = Date.now()): boolean {
    return this.leading && stillLeading(this.renewSentAt, now, this.opts.renewDeadlineMs);
  }

  start(): void {
    this.stopped = false;
    this.loop();
  }

  /** Stops campaigning and, if leading, releases the lease. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.deadline);
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
      if (!this.stopped) this.timer = setTimeout(() => this.loop(), this.opts.retryMs);
    });
  }

  private async tick(): Promise<void> {
    try {
      const ms = this.opts.renewDeadlineMs / 2;
      await withTimeout(this.attempt(), ms, `lease request took longer than ${ms} ms`);
    } catch (err) {
      this.mine = undefined; // a conflict or an outage: read the lease afresh next time
      this.opts.logger.debug({ err }, 'leader lease attempt failed');
      this.checkDeadline();
    }
  }

  // Runs on a timer at the deadline itself, not only after a failed attempt: a renewal hanging in
  // a dead connection must not keep a leader in office past the deadline.
  private checkDeadline(): void {
    if (!this.leading || this.mayWrite()) return;
    this.opts.logger.warn('could not renew the leader lease in time; stepping down');
    this.mine = undefined;
    this.setLeading(false);
  }

  private renewed(sentAt: number): void {
    this.renewSentAt = sentAt;
    clearTimeout(this.deadline);
    this.deadline = setTimeout(
      () => this.checkDeadline(),
      Math.max(0, sentAt + this.opts.renewDeadlineMs - Date.now()),
    );
    this.deadline.unref();
    this.setLeading(true);
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
    const sentAt = Date.now();
    const written = await this.write(action.kind, lease);
    if (round !== this.rounds) return;
    this.mine = written;
    this.renewed(sentAt);
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
