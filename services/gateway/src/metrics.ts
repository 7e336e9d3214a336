import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Fairness } from './fairness.js';
import type { RevocationSet } from './revocation.js';
import type { StreamEnd } from './streams.js';

export interface GatewayMetrics {
  observe(table: string, method: string, status: number, seconds: number): void;
}

/** `gateway_request_duration_seconds{table,method,status}`: the table, never the URL (ids would explode labels). */
export function gatewayMetrics(registry: Registry): GatewayMetrics {
  const histogram = new Histogram({
    name: 'gateway_request_duration_seconds',
    help: 'Public /api request duration through the gateway, by route table (legacy, unmapped), method and status',
    labelNames: ['table', 'method', 'status'],
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  return {
    observe(table, method, status, seconds) {
      histogram.observe({ table, method, status: String(status) }, seconds);
    },
  };
}

export interface FeedMetrics {
  /** After each poll of the revocation feed. */
  polled(ok: boolean, nowMs: number): void;
  /** After each sweep of the open event streams (streams.ts): how many it ended, per reason. */
  streamsEnded(ended: Record<StreamEnd, number>): void;
}

/**
 * The per-client shares in use and the revocation feed's health: an alert on
 * `time() - gateway_revocation_feed_last_success_timestamp_seconds` says the set is going stale.
 */
export function edgeMetrics(
  registry: Registry,
  parts: { fairness: Fairness; revocations: RevocationSet },
): FeedMetrics {
  const { fairness, revocations } = parts;
  new Gauge({
    name: 'gateway_upstream_requests_in_flight',
    help: 'Upstream requests in flight through the gateway (all clients)',
    registers: [registry],
    collect() {
      this.set(fairness.stats().inFlight);
    },
  });
  new Gauge({
    name: 'gateway_event_streams_open',
    help: 'Event streams open through the gateway (all clients)',
    registers: [registry],
    collect() {
      this.set(fairness.stats().streams);
    },
  });
  new Gauge({
    name: 'gateway_revoked_sessions',
    help: 'Revoked sessions and users the gateway refuses tokens of',
    registers: [registry],
    collect() {
      this.set(revocations.size);
    },
  });
  const lastSuccess = new Gauge({
    name: 'gateway_revocation_feed_last_success_timestamp_seconds',
    help: 'When the auth revocation feed last answered (0: not yet since start)',
    registers: [registry],
  });
  const up = new Gauge({
    name: 'gateway_revocation_feed_up',
    help: '1 when the last poll of the auth revocation feed succeeded, else 0',
    registers: [registry],
  });
  const failures = new Counter({
    name: 'gateway_revocation_feed_failures_total',
    help: 'Failed polls of the auth revocation feed',
    registers: [registry],
  });
  const ended = new Counter({
    name: 'gateway_event_streams_ended_total',
    help: 'Event streams the gateway ended because their session was revoked or their token expired',
    labelNames: ['reason'],
    registers: [registry],
  });
  lastSuccess.set(0);
  return {
    polled(ok, nowMs) {
      up.set(ok ? 1 : 0);
      if (ok) lastSuccess.set(nowMs / 1000);
      else failures.inc();
    },
    streamsEnded(counts) {
      for (const [reason, n] of Object.entries(counts)) if (n > 0) ended.inc({ reason }, n);
    },
  };
}
