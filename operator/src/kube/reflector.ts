import { Watch, type KubeConfig, type KubernetesObject } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { objectKey } from '../api/docx-import-job.js';
import { backoffMs } from '../controller/keyed-queue.js';
import { describeError, httpStatus } from './errors.js';

export type RestartReason = 'start' | 'expired' | 'error' | 'stalled' | 'resumed';

export interface ReflectorOptions<T extends KubernetesObject> {
  kc: KubeConfig;
  /** Collection path, e.g. /apis/apps/v1/namespaces/ns/deployments. */
  path: string;
  list: () => Promise<{ items: T[]; metadata?: { resourceVersion?: string } }>;
  labelSelector?: string;
  /** `previous` is the cached copy this one replaces (undefined when new), for event filters. */
  onUpsert: (obj: T, previous: T | undefined) => void;
  onDelete: (obj: T) => void;
  /** Server-side lifetime of one watch request; a healthy watch ends and restarts at least this often. */
  watchTimeoutSec?: number;
  /** The watchdog re-lists when neither an event nor a (re)connection happened for this long. */
  stallAfterMs?: number;
  onRestart?: (reason: RestartReason) => void;
  /** Watches bypass the client middleware that counts every other request. */
  onWatch?: () => void;
  logger: Logger;
}

/**
 * List, then watch from the list's resourceVersion, into a local cache: client-node's informer
 * minus its failure modes. It stops for good on a non-410 error and can hang on a dead connection
 * without a word; here every watch asks the server to end it after watchTimeoutSec (bookmarks keep
 * the resourceVersion fresh), an error resumes the watch from the last resourceVersion after a
 * backoff (client-go's way: no list unless needed), 410 Gone re-lists at once, and a watchdog
 * re-lists when nothing at all happened for longer than a healthy watch can stay quiet.
 */
export class Reflector<T extends KubernetesObject> {
  private readonly cache = new Map<string, T>();
  private readonly watch: Watch;
  private resourceVersion = '';
  /** The current watch was ended by an ERROR event: 410 Gone re-lists as 'expired', others as 'error'. */
  private watchError: 'expired' | 'error' | undefined;
  /** Bumped by every (re)start: callbacks of an older list or watch are ignored. */
  private generation = 0;
  private abort: AbortController | undefined;
  private failures = 0;
  private lastActivity = Date.now();
  private watchStartedAt = 0;
  private watchdog: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = true;
  private synced = false;

  constructor(private readonly opts: ReflectorOptions<T>) {
    this.watch = new Watch(opts.kc);
  }

  get hasSynced(): boolean {
    return this.synced;
  }

  get(key: string): T | undefined {
    return this.cache.get(key);
  }

  keys(): string[] {
    return [...this.cache.keys()];
  }

  /** Milliseconds since the last event, list or watch (re)connection. */
  idleMs(now = Date.now()): number {
    return now - this.lastActivity;
  }

  start(): void {
    this.stopped = false;
    const stallAfter = this.stallAfterMs();
    this.watchdog = setInterval(
      () => {
        if (this.idleMs() > stallAfter) this.restart('stalled');
      },
      Math.max(1000, Math.floor(stallAfter / 4)),
    );
    this.watchdog.unref();
    this.restart('start');
  }

  stop(): void {
    this.stopped = true;
    this.generation += 1;
    clearInterval(this.watchdog);
    clearTimeout(this.retry);
    this.abort?.abort();
    this.synced = false;
  }

  private stallAfterMs(): number {
    return this.opts.stallAfterMs ?? ((this.opts.watchTimeoutSec ?? 60) + 30) * 1000;
  }

  private restart(reason: RestartReason): void {
    if (this.stopped) return;
    const gen = ++this.generation;
    clearTimeout(this.retry);
    this.abort?.abort();
    this.abort = undefined;
    this.touch();
    this.opts.onRestart?.(reason);
    if (reason !== 'start') this.opts.logger.info({ path: this.opts.path, reason }, 're-listing');
    void this.relist(gen);
  }

  private async relist(gen: number): Promise<void> {
    try {
      const list = await this.opts.list();
      if (gen !== this.generation) return;
      this.replaceAll(list.items);
      this.resourceVersion = list.metadata?.resourceVersion ?? '';
      this.failures = 0;
      this.synced = true;
      this.touch();
      await this.watchFrom(gen);
    } catch (err) {
      if (gen === this.generation) this.retryLater(err);
    }
  }

  private async watchFrom(gen: number): Promise<void> {
    const params: Record<string, string | number | boolean> = {
      resourceVersion: this.resourceVersion,
      allowWatchBookmarks: true,
      timeoutSeconds: this.opts.watchTimeoutSec ?? 60,
    };
    if (this.opts.labelSelector) params.labelSelector = this.opts.labelSelector;
    this.opts.onWatch?.();
    this.watchError = undefined;
    this.watchStartedAt = Date.now();
    const abort = await this.watch.watch(
      this.opts.path,
      params,
      (type: string, obj: T & { code?: number }) => this.onEvent(gen, type, obj),
      (err: unknown) => this.onDone(gen, err),
    );
    if (gen === this.generation) this.abort = abort;
    else abort.abort();
  }

  private onEvent(gen: number, type: string, obj: T & { code?: number }): void {
    if (gen !== this.generation) return;
    this.touch();
    if (type === 'ERROR') {
      // 410 Gone: our resourceVersion was compacted away; anything else, start over too.
      this.resourceVersion = '';
      this.watchError = obj.code === 410 ? 'expired' : 'error';
      return;
    }
    if (type === 'ADDED' || type === 'MODIFIED') this.upsert(obj);
    if (type === 'DELETED') this.remove(obj);
    this.resourceVersion = obj.metadata?.resourceVersion ?? this.resourceVersion;
  }

  private onDone(gen: number, err: unknown): void {
    if (gen !== this.generation || this.stopped) return;
    if (httpStatus(err) === 410) return this.restart('expired');
    if (!err && !this.resourceVersion) return this.restart(this.watchError ?? 'expired');
    if (err) return this.retryLater(err);
    // A watch the server ends at once (a proxy cutting it, an overloaded server) must not spin.
    if (Date.now() - this.watchStartedAt < 1000) return this.retryLater(new Error('watch closed as soon as it opened'));
    this.touch();
    this.watchFrom(gen).catch((e: unknown) => gen === this.generation && this.retryLater(e));
  }

  private retryLater(err: unknown): void {
    this.failures += 1;
    const delay = Math.min(5000, backoffMs(this.failures));
    this.opts.logger.warn({ path: this.opts.path, err: describeError(err), retryInMs: delay }, 'list/watch failed');
    clearTimeout(this.retry);
    this.retry = setTimeout(() => this.resume(), delay);
  }

  /**
   * What a resume after a dropped connection does, from a given resourceVersion: lets a test make
   * the real API server answer 410 Gone (a version older than its watch cache) and see the re-list.
   */
  resumeFrom(resourceVersion: string): void {
    this.resourceVersion = resourceVersion;
    this.resume();
  }

  /** After an error: watch again from where we were; only a cache never filled needs a list. */
  private resume(): void {
    if (this.stopped) return;
    if (!this.resourceVersion || !this.synced) return this.restart('error');
    const gen = ++this.generation;
    this.abort?.abort();
    this.abort = undefined;
    this.touch();
    this.opts.onRestart?.('resumed');
    this.watchFrom(gen).catch((e: unknown) => gen === this.generation && this.retryLater(e));
  }

  private replaceAll(items: T[]): void {
    const seen = new Set<string>();
    for (const item of items) {
      seen.add(objectKey(item));
      this.upsert(item);
    }
    for (const [key, obj] of this.cache) if (!seen.has(key)) this.remove(obj);
  }

  private upsert(obj: T): void {
    const key = objectKey(obj);
    const known = this.cache.get(key);
    if (known && known.metadata?.resourceVersion === obj.metadata?.resourceVersion) return;
    this.cache.set(key, obj);
    this.opts.onUpsert(obj, known);
  }

  private remove(obj: T): void {
    const key = objectKey(obj);
    const known = this.cache.get(key);
    if (!known) return;
    this.cache.delete(key);
    this.opts.onDelete(known);
  }

  private touch(): void {
    this.lastActivity = Date.now();
  }
}
