import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export type OperatorMetrics = ReturnType<typeof createOperatorMetrics>;

export function createOperatorMetrics(registry: Registry) {
  const registers = [registry];
  const jobLabels = ['namespace', 'name'] as const;
  return {
    reconciles: new Counter({
      name: 'docx_import_operator_reconcile_total',
      help: 'Reconciles by result',
      labelNames: ['result'] as const,
      registers,
    }),
    reconcileSeconds: new Histogram({
      name: 'docx_import_operator_reconcile_duration_seconds',
      help: 'Reconcile duration, Kafka reading included',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    apiRequests: new Counter({
      name: 'docx_import_operator_kube_requests_total',
      help: 'Kubernetes API requests sent, by verb and resource (watches included)',
      labelNames: ['verb', 'resource'] as const,
      registers,
    }),
    watchRestarts: new Counter({
      name: 'docx_import_operator_watch_restarts_total',
      help: 'List/watch (re)starts by resource and reason (start, expired, error, stalled)',
      labelNames: ['resource', 'reason'] as const,
      registers,
    }),
    scaleEvents: new Counter({
      name: 'docx_import_operator_scale_total',
      help: 'Worker scaling decisions applied, by direction',
      labelNames: ['direction'] as const,
      registers,
    }),
    statusWrites: new Counter({
      name: 'docx_import_operator_status_writes_total',
      help: 'DocxImportJob status changes: written, or deferred (only queue figures moved within the interval)',
      labelNames: ['result'] as const,
      registers,
    }),
    writesRefused: new Counter({
      name: 'docx_import_operator_writes_refused_total',
      help: 'Writes not sent because leadership was lost or past its renew deadline, by kind',
      labelNames: ['kind'] as const,
      registers,
    }),
    leader: new Gauge({
      name: 'docx_import_operator_is_leader',
      help: '1 while this instance holds the leader lease',
      registers,
    }),
    pending: new Gauge({
      name: 'docx_import_queue_pending_jobs',
      help: 'Jobs pending in the queue (consumer-group lag)',
      labelNames: jobLabels,
      registers,
    }),
    oldest: new Gauge({
      name: 'docx_import_queue_oldest_waiting_seconds',
      help: 'Age of the oldest pending job (lower bound)',
      labelNames: jobLabels,
      registers,
    }),
    deadLetters: new Gauge({
      name: 'docx_import_queue_dead_letters',
      help: "Messages in the work queue's dead-letter topic (<topic>.dlq): work items the workers gave up on",
      labelNames: jobLabels,
      registers,
    }),
    desired: new Gauge({
      name: 'docx_import_workers_desired',
      help: 'Worker replicas the operator set',
      labelNames: jobLabels,
      registers,
    }),
  };
}

/** The Kubernetes verb and resource of a request the client middleware saw (list and get share GET). */
export function describeRequest(method: string, url: string): { verb: string; resource: string } {
  const segments = new URL(url).pathname.split('/').filter(Boolean);
  const rest = segments[0] === 'api' ? segments.slice(2) : segments.slice(3);
  const scoped = rest[0] === 'namespaces' && rest.length > 2 ? rest.slice(2) : rest;
  const resource = scoped.length > 2 ? `${scoped[0]}/${scoped[2]}` : (scoped[0] ?? '');
  const m = method.toUpperCase();
  const writes: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };
  const verb = m === 'GET' ? (scoped.length === 1 ? 'list' : 'get') : (writes[m] ?? m.toLowerCase());
  return { verb, resource };
}
