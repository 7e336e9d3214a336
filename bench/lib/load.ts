// Small load generators for the benchmarks: closed loop (throughput) and open loop (latency at a
// fixed rate, so a slow server cannot hide its tail by slowing the client down).

export interface LatencySummary {
  count: number;
  errors: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

export function summarize(latenciesMs: number[], errors = 0): LatencySummary {
  const s = [...latenciesMs].sort((a, b) => a - b);
  const at = (q: number) => (s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor(q * s.length))]!);
  const mean = s.reduce((a, b) => a + b, 0) / Math.max(1, s.length);
  return { count: s.length, errors, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: s[s.length - 1] ?? NaN, mean };
}

/** `concurrency` workers call `op` back to back for `seconds`; returns completed ops per second. */
export async function closedLoop(op: (worker: number) => Promise<boolean>, concurrency: number, seconds: number) {
  const until = performance.now() + seconds * 1000;
  let ok = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      while (performance.now() < until) {
        if (await op(w)) ok += 1;
        else errors += 1;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return { perSecond: ok / elapsed, ok, errors, elapsed };
}

/** Starts `op` every 1/rate seconds regardless of completions, for `seconds`; latency per op. */
export async function openLoop(
  op: () => Promise<boolean>,
  ratePerSecond: number,
  seconds: number,
): Promise<LatencySummary> {
  const total = Math.round(ratePerSecond * seconds);
  const interval = 1000 / ratePerSecond;
  const start = performance.now();
  const latencies: number[] = [];
  let errors = 0;
  const inflight: Array<Promise<void>> = [];
  for (let i = 0; i < total; i += 1) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    inflight.push(
      (async () => {
        // Latency counts from when the request was due, not when the timer fired (coordinated omission).
        const okay = await op();
        if (okay) latencies.push(performance.now() - due);
        else errors += 1;
      })(),
    );
  }
  await Promise.all(inflight);
  return summarize(latencies, errors);
}

export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
