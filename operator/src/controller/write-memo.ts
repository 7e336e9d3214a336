import type { KubernetesObject } from '@kubernetes/client-node';

interface Written<T> {
  /** resourceVersion of the copy our write replaced (undefined for a create). */
  replaced: string | undefined;
  obj: T;
}

/**
 * The watch delivers our own writes a moment after they return. A reconcile starting in between
 * (a resync tick) would decide from the pre-write copy and, say, scale down twice. The memo holds
 * what each write returned and stands in for the cached copy while the cache still shows exactly
 * the version that write replaced: no resourceVersion ordering is assumed, only equality.
 */
export class WriteMemo<T extends KubernetesObject> {
  private readonly written = new Map<string, Written<T>>();

  remember(key: string, replaced: T | undefined, returned: T): void {
    this.written.set(key, { replaced: replaced?.metadata?.resourceVersion, obj: returned });
  }

  forget(key: string): void {
    this.written.delete(key);
  }

  freshest(key: string, cached: T | undefined): T | undefined {
    const w = this.written.get(key);
    const pick = freshest(cached, w);
    if (w && pick !== w.obj) this.written.delete(key);
    return pick;
  }
}

export function freshest<T extends KubernetesObject>(
  cached: T | undefined,
  written: Written<T> | undefined,
): T | undefined {
  if (!written) return cached;
  const cachedRv = cached?.metadata?.resourceVersion;
  return cachedRv === written.replaced ? written.obj : cached;
}
