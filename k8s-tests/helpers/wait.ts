// Polling with a generous deadline: a timeout here means "never happened", not "too slow".

export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
}

/** Resolves with the first truthy value `probe` returns; errors from the probe count as "not yet". */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  opts: WaitOptions = {},
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 180_000);
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
      last = value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      const detail = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`timed out waiting for ${what}; last: ${detail}`);
    }
    await sleep(opts.intervalMs ?? 250);
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
