// Starts the gateway in-process (port 0, logs captured) in front of the real services of a test file.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import jwt from 'jsonwebtoken';
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

/** The gateway with test defaults; a variable given as undefined is left unset. The revocation poller is off unless asked for. */
export async function startTestGateway(env: Record<string, string | undefined>): Promise<TestGateway> {
  const logs = new LogCapture();
  const merged: Record<string, string | undefined> = {
    NODE_ENV: 'test',
    PORT: '0',
    LOG_LEVEL: 'debug',
    AUTH_JWT_SECRET: SECRET,
    INTERNAL_API_TOKEN: INTERNAL,
    GATEWAY_RATE_LIMIT_RPS: '0',
    GATEWAY_REVOCATION_POLL_MS: '0',
    ...env,
  };
  const running = await startGateway({
    env: Object.fromEntries(Object.entries(merged).filter((e): e is [string, string] => e[1] !== undefined)),
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

/** An access token as the auth service signs it (15 minutes), with `claims` over the defaults. */
export function accessToken(claims: Record<string, unknown> = {}, opts: jwt.SignOptions = { expiresIn: 900 }): string {
  const base = {
    sub: `u-${randomUUID().slice(0, 8)}`,
    type: 'access',
    role: 'TEACHER',
    accountCode: 'AC1',
    fullName: 'Cô Lan',
    email: 'lan@thpt.edu.vn',
    defaultOrganizationId: 'local',
  };
  return jwt.sign({ ...base, ...claims }, SECRET, { algorithm: 'HS256', ...opts });
}

export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
}

export interface TestUpstream {
  url: string;
  /** Every request the upstream received, in order of arrival. */
  seen: Seen[];
  /** Answers held open (streams and requests told to hang), ended by `release()`. */
  held: Set<http.ServerResponse>;
  release(): void;
  close(): Promise<void>;
}

/**
 * A real HTTP upstream that records what reached it. A path containing `/hold` is never answered
 * (until `release()`); one ending in `/events` answers an event stream and keeps it open; any
 * other is `200 { success: true, data: { path } }`.
 */
export async function startUpstream(): Promise<TestUpstream> {
  const seen: Seen[] = [];
  const held = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, rawHeaders: req.rawHeaders });
    req.resume();
    const path = (req.url ?? '').split('?')[0]!;
    if (path.includes('/hold') || path.endsWith('/events')) {
      held.add(res);
      res.on('close', () => held.delete(res));
      if (path.endsWith('/events')) {
        res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
        res.write(': open\n\n');
      }
      return;
    }
    const body = JSON.stringify({ success: true, message: 'OK', data: { path } });
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const release = () => {
    for (const res of held) res.end();
  };
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    seen,
    held,
    release,
    close: () =>
      new Promise<void>((r) => {
        release();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request with headers exactly as given (odd spellings included), answered in full. */
export function rawRequest(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', headers: opts.headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

export interface OpenStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body so far (a refused stream's whole envelope). */
  body(): string;
  /** True once the answer has ended (the gateway or the upstream ended it). */
  ended(): boolean;
  close(): void;
}

/** Opens a GET and resolves when its answer's headers arrive; the answer stays open until `close()`. */
export function openStream(url: string, headers: Record<string, string>): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    let text = '';
    let ended = false;
    const req = http.get(url, { headers, agent: false }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => (ended = true));
      res.on('error', () => undefined);
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        body: () => text,
        ended: () => ended,
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
  });
}

/** Sends a GET and returns at once: for requests an upstream holds (no answer headers to wait for). */
export function sendHeld(url: string, headers: Record<string, string>): { close(): void; answered: Promise<number> } {
  const req = http.get(url, { headers, agent: false });
  const answered = new Promise<number>((resolve) => {
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
  });
  return { close: () => req.destroy(), answered };
}
