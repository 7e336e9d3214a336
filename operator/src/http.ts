import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface ProbeState {
  leader: () => boolean;
  synced: () => boolean;
}

/** /healthz (the process lives), /readyz (a leader has synced its caches; a standby is ready), /metrics. */
export function startHttpServer(port: number, registry: Registry, state: ProbeState): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    void route(req.url ?? '/', registry, state).then(({ status, type, body }) => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve(server));
  });
}

async function route(
  url: string,
  registry: Registry,
  state: ProbeState,
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
  if (path === '/metrics') return { status: 200, type: registry.contentType, body: await registry.metrics() };
  return json(404, { status: 'not found' });
}

export function boundPort(server: http.Server): number {
  return (server.address() as AddressInfo).port;
}
