import { Registry, collectDefaultMetrics, type Metric } from 'prom-client';

/** A registry per app (not prom-client's global one), so several apps can live in one test process. */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

export type ObserveDuration = (method: string, route: string, status: number, seconds: number) => void;

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const BOUNDS = DURATION_BUCKETS.length;

interface Series {
  labels: { method: string; route: string; status: string };
  /** Per bucket, not cumulative; the exposition sums them. The last slot is +Inf. */
  counts: number[];
  sum: number;
  count: number;
}

interface Sample {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

/**
 * Registers `http_request_duration_seconds` labelled by the matched route template (never the raw
 * URL: ids would explode the label set), method and status code, and returns the observer the
 * request path calls. It is a histogram in the Prometheus exposition like prom-client's, kept as
 * plain counters per label set: prom-client's `observe` validates and hashes its labels on every
 * call, a measurable share of the kit's per-request cost. It is registered as an object speaking
 * the Registry's metric protocol (`get`, `reset`), not a prom-client Metric: prom-client is pinned
 * exactly in package.json, and test/library-internals.test.ts compares its exposition with a real
 * Histogram's, so an update that changes the protocol fails there.
 */
export function httpDurationObserver(registry: Registry): ObserveDuration {
  const series = new Set<Series>();
  const name = 'http_request_duration_seconds';
  const metric = {
    name,
    help: 'HTTP request duration by method, route template and status',
    type: 'histogram',
    aggregator: 'sum',
    get: async () => ({ name, help: metric.help, type: metric.type, aggregator: metric.aggregator, values: samples() }),
    reset: () => {
      series.clear();
      byRoute.clear();
    },
  };
  registry.registerMetric(metric as unknown as Metric);

  function samples(): Sample[] {
    const out: Sample[] = [];
    for (const s of series.values()) {
      let cumulative = 0;
      DURATION_BUCKETS.forEach((le, i) => {
        cumulative += s.counts[i]!;
        out.push({ metricName: `${name}_bucket`, labels: { le, ...s.labels }, value: cumulative });
      });
      out.push({ metricName: `${name}_bucket`, labels: { le: '+Inf', ...s.labels }, value: s.count });
      out.push({ metricName: `${name}_sum`, labels: s.labels, value: s.sum });
      out.push({ metricName: `${name}_count`, labels: s.labels, value: s.count });
    }
    return out;
  }

  // route -> status -> method: no key string built per request.
  const byRoute = new Map<string, Map<number, Map<string, Series>>>();
  function seriesFor(method: string, route: string, status: number): Series {
    let byStatus = byRoute.get(route);
    if (!byStatus) byRoute.set(route, (byStatus = new Map()));
    let byMethod = byStatus.get(status);
    if (!byMethod) byStatus.set(status, (byMethod = new Map()));
    let s = byMethod.get(method);
    if (!s) {
      s = {
        labels: { method, route, status: String(status) },
        counts: new Array<number>(BOUNDS + 1).fill(0),
        sum: 0,
        count: 0,
      };
      byMethod.set(method, s);
      series.add(s);
    }
    return s;
  }

  return (method, route, status, seconds) => {
    const s = seriesFor(method, route, status);
    let i = 0;
    while (i < BOUNDS && seconds > DURATION_BUCKETS[i]!) i += 1;
    s.counts[i]! += 1;
    s.sum += seconds;
    s.count += 1;
  };
}
