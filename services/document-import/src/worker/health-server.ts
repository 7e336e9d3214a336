// /healthz and /readyz of a DOCX worker, for the kubelet's probes: plain node:http on its own port
// (the worker serves no API), answering from WorkerHealth.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Joi from 'joi';
import type { Logger } from '../../../kit/src/core/index.js';
import type { ProbeAnswer, WorkerHealth } from './health.js';

/** The worker's own keys, beside the service's schema (the operator sets WORKER_HEALTH_PORT). */
export interface WorkerHealthConfig {
  WORKER_HEALTH_PORT: number;
  /** Bound on one job in hand before /healthz fails; derived from the parse limits when unset (health.ts). */
  DOCX_WORKER_STUCK_MS?: number;
}

export const workerHealthConfig = {
  // 0: any free port (several workers on one machine outside Kubernetes).
  WORKER_HEALTH_PORT: Joi.number().port().default(8081),
  DOCX_WORKER_STUCK_MS: Joi.number().integer().min(10_000).max(86_400_000).optional(),
};

export const PROBE_PATHS: Record<string, (h: WorkerHealth) => ProbeAnswer> = {
  '/healthz': (h) => h.liveness(),
  '/readyz': (h) => h.readiness(),
};

function answer(health: WorkerHealth, method: string | undefined, url: string | undefined) {
  const probe = PROBE_PATHS[(url ?? '').split('?')[0] ?? ''];
  if (!probe) return { status: 404, body: { status: 'fail', message: 'not found' } };
  if (method !== 'GET' && method !== 'HEAD') return { status: 405, body: { status: 'fail', message: 'GET only' } };
  const a = probe(health);
  return { status: a.ok ? 200 : 503, body: { status: a.ok ? 'ok' : 'fail', message: a.message } };
}

/**
 * Serves the probes on host:port. A port already taken (only possible outside a pod: several workers
 * on one machine) is logged and the worker runs without probes; in a pod the kubelet would notice.
 */
export function serveHealth(
  health: WorkerHealth,
  where: { host: string; port: number },
  logger: Logger,
): Promise<Server | undefined> {
  const server = createServer((req, res) => {
    const { status, body } = answer(health, req.method, req.url);
    if (status !== 200 && req.url?.startsWith('/healthz'))
      logger.warn({ probe: body.message }, 'docx worker: not live');
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : JSON.stringify(body));
  });
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EADDRINUSE') return reject(err);
      logger.error({ port: where.port }, 'docx worker: health port in use; running without /healthz and /readyz');
      resolve(undefined);
    });
    server.listen(where.port, where.host, () => {
      logger.info({ port: (server.address() as AddressInfo).port }, 'docx worker: probes on /healthz and /readyz');
      resolve(server);
    });
  });
}

export function closeHealth(server: Server | undefined): Promise<void> {
  return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
}
