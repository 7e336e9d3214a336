import { Watch, type KubeConfig, type KubernetesObject } from '@kubernetes/client-node';

/**
 * Counts MODIFIED events of one object from a given resourceVersion on: every write to it that the
 * API server stored, seen from outside the operator (no trust in the operator's own metrics).
 */
export class ModifiedCounter {
  count = 0;
  private abort: AbortController | undefined;
  private error: unknown;

  static async start(kc: KubeConfig, path: string, name: string, resourceVersion: string): Promise<ModifiedCounter> {
    const counter = new ModifiedCounter();
    counter.abort = await new Watch(kc).watch(
      path,
      { fieldSelector: `metadata.name=${name}`, resourceVersion, timeoutSeconds: 1800 },
      (type: string, _obj: KubernetesObject) => {
        if (type === 'MODIFIED') counter.count += 1;
        if (type === 'ERROR') counter.error = new Error('the counting watch got an ERROR event');
      },
      (err: unknown) => {
        counter.error ??= err ?? new Error('the counting watch ended');
      },
    );
    return counter;
  }

  /** The count so far; throws if the watch broke, since a count from a broken watch proves nothing. */
  read(): number {
    if (this.error) throw this.error instanceof Error ? this.error : new Error(String(this.error));
    return this.count;
  }

  stop(): void {
    this.error ??= new Error('stopped');
    this.abort?.abort();
  }
}
