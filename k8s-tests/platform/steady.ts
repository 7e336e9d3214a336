// A steady low rate of real requests through a Service while something else happens (a rolling
// upgrade): each request's outcome is kept, so a lost one is named, not averaged away.
export interface SteadyResult {
  sent: number;
  ok: number;
  failures: string[];
}

export interface Steady {
  stop(): Promise<SteadyResult>;
}

/** One `GET url` every `everyMs` (not waiting for the previous one) until stopped. */
export function steadyLoad(url: string, headers: Record<string, string>, everyMs: number): Steady {
  const result: SteadyResult = { sent: 0, ok: 0, failures: [] };
  const inflight = new Set<Promise<void>>();
  const one = async () => {
    const n = ++result.sent;
    try {
      const res = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) });
      await res.arrayBuffer();
      if (res.status === 200) result.ok += 1;
      else result.failures.push(`#${n}: HTTP ${res.status}`);
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      result.failures.push(`#${n}: ${(err as Error).message}${cause ? ` (${cause})` : ''}`);
    }
  };
  const timer = setInterval(() => {
    const p = one().finally(() => inflight.delete(p));
    inflight.add(p);
  }, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all([...inflight]);
      return result;
    },
  };
}
