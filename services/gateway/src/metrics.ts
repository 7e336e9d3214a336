import { Histogram, type Registry } from 'prom-client';

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
