// Starts the gateway in-process (port 0, logs captured) in front of the real services of a test file.
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import supertest from 'supertest';
import { LogCapture } from '../../kit/test/support/log-capture.js';
import { startGateway, type RunningGateway } from '../src/service.js';

export const SECRET = 'gateway-test-secret-'.padEnd(40, 'x');
export const INTERNAL = 'internal-token-for-gateway-tests';

export interface TestGateway {
  url: string;
  request: ReturnType<typeof supertest>;
  running: RunningGateway;
  logs: LogCapture;
  close(): Promise<void>;
}

export async function startTestGateway(env: Record<string, string>): Promise<TestGateway> {
  const logs = new LogCapture();
  const running = await startGateway({
    env: {
      NODE_ENV: 'test',
      PORT: '0',
      LOG_LEVEL: 'debug',
      AUTH_JWT_SECRET: SECRET,
      INTERNAL_API_TOKEN: INTERNAL,
      GATEWAY_RATE_LIMIT_RPS: '0',
      ...env,
    },
    host: '127.0.0.1',
    logDestination: logs,
    handleSignals: false,
  });
  running.server.unref();
  const url = `http://127.0.0.1:${running.port}`;
  return { url, request: supertest(url), running, logs, close: () => running.shutdown('test finished') };
}

export const email = (who: string) => `${who}-${randomUUID().slice(0, 8)}@thpt.edu.vn`;

/** A port nothing listens on (bound, then closed). */
export async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** A TCP server that treats each connection with `onConnection` (a broken or silent upstream). */
export async function rawServer(
  onConnection: (s: net.Socket) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const srv = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
    onConnection(s);
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(srv.address() as net.AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        srv.close(() => r());
      }),
  };
}

/** Polls `cond` until it holds or the deadline passes (never a fixed sleep). */
export async function until(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
