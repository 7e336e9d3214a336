import { bearerToken, sameSecret } from '../../services/kit/src/core/index.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface ProbeState {
  leader: () => boolean;
  synced: () => boolean;
}

/**
 * /healthz (the process lives), /readyz (a leader has synced its caches; a standby is ready), and
 * /metrics, which with a token answers only `Authorization: Bearer <token>`.
 */
export function startHttpServer(
  port: number,
  registry: Registry,
  state: ProbeState,
  metricsToken?: string,
): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const authorized = !metricsToken || bearerMatches(req.headers.authorization, metricsToken);
    void route(req.url ?? '/', registry, state, authorized).then(({ status, type, body }) => {
      res.writeHead(status, { 'content-type': type, ...(status === 401 ? { 'www-authenticate': 'Bearer' } : {}) });
      res.end(body);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve(server));
  });
}

/** Constant-time comparison of the presented bearer token with the expected one. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = bearerToken(header);
  return given !== undefined && sameSecret(given, token);
}

async function route(
  url: string,
  registry: Registry,
  state: ProbeState,
  authorized: boolean,
): Promise<{ status: number; type: string; body: string }> {
  const path = url.split('?')[0];
  const json = (status: number, body: unknown) => ({ status, type: 'application/json', body: JSON.stringify(body) });
  if (path === '/healthz') return json(200, { status: 'ok', leader: state.leader() });
  if (path === '/readyz') {
    const ready = !state.leader() || state.synced();
    return json(ready ? 200 : 503, {
      status: ready ? 'ok' : 'syncing',
      leader: state.leader(),
      synced: state.synced(),
    });
  }
  if (path === '/metrics') {
    if (!authorized) return json(401, { status: 'unauthorized' });
    return { status: 200, type: registry.contentType, body: await registry.metrics() };
  }
  return json(404, { status: 'not found' });
}

export function boundPort(server: http.Server): number {
  return (server.address() as AddressInfo).port;
}
