import type { Request, Response } from 'express';
import { withTimeout } from './timing.js';

/** A readiness check throws (or rejects) when its dependency does not answer. */
export type HealthCheck = () => Promise<void>;
export type HealthChecks = Record<string, HealthCheck>;

export interface ReadinessState {
  shuttingDown: boolean;
}

const CHECK_TIMEOUT_MS = 2000;
const REPORT_ONLY = Symbol('reportOnly');

/**
 * A check that /readyz runs and reports in `checks` but that never makes the service unready. The
 * services' Kafka check is one: the outbox holds events through a Kafka outage, so taking every pod
 * out of rotation would turn a Kafka outage into a platform outage.
 */
export function reportOnly(check: HealthCheck): HealthCheck {
  const wrapped: HealthCheck = () => check();
  Object.defineProperty(wrapped, REPORT_ONLY, { value: true });
  return wrapped;
}

export const isReportOnly = (check: HealthCheck | undefined): boolean =>
  Boolean(check && (check as unknown as Record<symbol, unknown>)[REPORT_ONLY]);

/** Runs every named check with a timeout and says `ok` or `fail: <why>` for each. */
export async function runChecks(checks: HealthChecks): Promise<Record<string, string>> {
  const names = Object.keys(checks);
  const results = await Promise.all(
    names.map(async (name) => {
      try {
        await withTimeout(checks[name]!(), CHECK_TIMEOUT_MS);
        return [name, 'ok'] as const;
      } catch (err) {
        return [name, `fail: ${(err as Error).message ?? String(err)}`] as const;
      }
    }),
  );
  return Object.fromEntries(results);
}

export function readinessHandler(checks: HealthChecks, state: ReadinessState) {
  return async (_req: Request, res: Response): Promise<void> => {
    if (state.shuttingDown) {
      unready(res, ['shutdown'], { shutdown: 'fail: shutting down' });
      return;
    }
    const results = await runChecks(checks);
    // A failing report-only check stays in the body (`checks.kafka: fail: ...`) but gates nothing.
    const failing = Object.keys(results).filter((n) => results[n] !== 'ok' && !isReportOnly(checks[n]));
    if (failing.length > 0) unready(res, failing, results);
    else res.json({ success: true, data: { status: 'ready', checks: results }, message: 'OK' });
  };
}

function unready(res: Response, failing: string[], checks: Record<string, string>): void {
  res.status(503).json({
    success: false,
    message: `Not ready: ${failing.join(', ')}`,
    error: { code: 'DEPENDENCY_UNAVAILABLE', details: { failing, checks } },
  });
}
