import { expect } from 'chai';
import { EventEmitter } from 'node:events';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { Router } from 'express';
import request from 'supertest';
import { AppError, createLogger, createMetricsRegistry } from '../src/core/index.js';
import { StreamRegistry, createApp, sse, type SseStream } from '../src/http/index.js';
import { LogCapture } from './support/log-capture.js';

const FLOOD_BOUND = 256 * 1024;

async function until(what: string, cond: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function buildApp() {
  const registry = new StreamRegistry();
  const bus = new EventEmitter();
  const cleanups: unknown[] = [];
  const flood: { stream?: SseStream } = {};
  const routes = Router();
  routes.get(
    '/v1/jobs/:id/events',
    sse(
      async (stream, req) => {
        const id = String(req.params.id);
        if (id === 'missing') throw new AppError('IMPORT_JOB_NOT_FOUND', 'Import job not found');
        stream.send('snapshot', { id, status: 'PENDING' }, '0');
        const onUpdate = (data: { seq: number }) => stream.send('job.updated', data, String(data.seq));
        bus.on(id, onUpdate);
        return () => {
          bus.off(id, onUpdate);
          cleanups.push(stream.signal.reason);
        };
      },
      { registry },
    ),
  );
  routes.get(
    '/v1/beats',
    sse(() => undefined, { registry, heartbeatMs: 25 }),
  );
  routes.get(
    '/v1/flood',
    sse(
      (stream) => {
        flood.stream = stream;
        return () => cleanups.push(stream.signal.reason);
      },
      { registry, maxBufferedBytes: FLOOD_BOUND },
    ),
  );
  const app = createApp({
    name: 'kit-sse-test',
    version: '0.0.0',
    routes,
    checks: {},
    logger: createLogger({ name: 'kit-sse-test', destination: new LogCapture() }),
    metrics: createMetricsRegistry(),
    openapi: {},
  });
  return { app, registry, bus, cleanups, flood };
}

interface SseEvent {
  event?: string;
  id?: string;
  data?: unknown;
}

/** A real EventSource-like client: parses what arrives, block by block. */
function openStream(port: number, path: string) {
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const state = { ended: false, status: 0, headers: {} as http.IncomingHttpHeaders };
  let buffer = '';
  const req = http.get({ host: '127.0.0.1', port, path, headers: { Accept: 'text/event-stream' } }, (res) => {
    state.status = res.statusCode ?? 0;
    state.headers = res.headers;
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        parseBlock(buffer.slice(0, end), events, comments);
        buffer = buffer.slice(end + 2);
      }
    });
    res.on('end', () => (state.ended = true));
    res.on('error', () => (state.ended = true));
  });
  req.on('error', () => (state.ended = true));
  return { req, events, comments, state };
}

function parseBlock(block: string, events: SseEvent[], comments: string[]): void {
  const ev: SseEvent = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) comments.push(line.slice(1).trim());
    else if (line.startsWith('event: ')) ev.event = line.slice(7);
    else if (line.startsWith('id: ')) ev.id = line.slice(4);
    else if (line.startsWith('data: ')) ev.data = JSON.parse(line.slice(6));
  }
  if (ev.event) events.push(ev);
}

describe('kit sse() (real HTTP)', () => {
  let ctx: ReturnType<typeof buildApp>;
  let server: http.Server;
  let port: number;

  beforeEach(async () => {
    ctx = buildApp();
    server = ctx.app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(async () => {
    ctx.registry.closeAll();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('sends the stream headers, the snapshot, then live events in order', async () => {
    const client = openStream(port, '/v1/jobs/j1/events');
    await until('the snapshot', () => client.events.length === 1);
    expect(client.state.status).to.equal(200);
    expect(client.state.headers['content-type']).to.equal('text/event-stream; charset=utf-8');
    expect(client.state.headers['cache-control']).to.equal('no-cache, no-transform');
    expect(client.state.headers['x-accel-buffering']).to.equal('no');
    for (const seq of [1, 2, 3]) ctx.bus.emit('j1', { seq });
    await until('three updates', () => client.events.length === 4);
    expect(client.events).to.deep.equal([
      { event: 'snapshot', id: '0', data: { id: 'j1', status: 'PENDING' } },
      { event: 'job.updated', id: '1', data: { seq: 1 } },
      { event: 'job.updated', id: '2', data: { seq: 2 } },
      { event: 'job.updated', id: '3', data: { seq: 3 } },
    ]);
    client.req.destroy();
  });

  it('a handler that throws before sending gives the ordinary JSON error', async () => {
    const res = await request(server).get('/v1/jobs/missing/events');
    expect([res.status, res.body.error.code]).to.deep.equal([404, 'IMPORT_JOB_NOT_FOUND']);
    expect(ctx.registry.size).to.equal(0);
  });

  it('sends heartbeat comments on the configured period', async () => {
    const client = openStream(port, '/v1/beats');
    await until('two heartbeats', () => client.comments.filter((c) => c === 'heartbeat').length >= 2);
    expect(client.events).to.deep.equal([]);
    client.req.destroy();
  });

  it('a client disconnect runs the cleanup and unsubscribes', async () => {
    const client = openStream(port, '/v1/jobs/j2/events');
    await until('the snapshot', () => client.events.length === 1);
    expect(ctx.bus.listenerCount('j2')).to.equal(1);
    expect(ctx.registry.size).to.equal(1);
    client.req.destroy();
    await until('the cleanup', () => ctx.cleanups.length === 1);
    expect(ctx.cleanups).to.deep.equal(['client-closed']);
    expect(ctx.bus.listenerCount('j2')).to.equal(0);
    expect(ctx.registry.size).to.equal(0);
  });

  it('closeAll() ends every stream (drain) and refuses new ones with 503', async () => {
    const a = openStream(port, '/v1/jobs/j3/events');
    const b = openStream(port, '/v1/jobs/j4/events');
    await until('both snapshots', () => a.events.length === 1 && b.events.length === 1);
    expect(ctx.registry.closeAll()).to.equal(2);
    await until('both responses end', () => a.state.ended && b.state.ended);
    expect(ctx.cleanups).to.deep.equal(['drain', 'drain']);
    expect(ctx.bus.listenerCount('j3') + ctx.bus.listenerCount('j4')).to.equal(0);
    const late = await request(server).get('/v1/jobs/j5/events');
    expect(late.status).to.equal(503);
  });

  it('drops a client that stops reading instead of buffering without bound', async () => {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.pause(); // never reads: the kernel buffers fill, then Node's would grow
    socket.write('GET /v1/flood HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n');
    await until('the stream opens', () => ctx.flood.stream !== undefined);
    const stream = ctx.flood.stream!;
    const blob = 'x'.repeat(16 * 1024);
    let sent = 0;
    // 160 MB if nothing stopped it: far past any socket buffer on this machine.
    while (sent < 10_000 && stream.send('blob', blob)) sent++;
    expect(stream.closed, `still open after ${sent} events`).to.equal(true);
    expect(stream.signal.reason).to.equal('slow-client');
    expect(stream.peakBufferedBytes).to.be.at.most(FLOOD_BOUND);
    expect(ctx.cleanups).to.deep.equal(['slow-client']);
    expect(ctx.registry.size).to.equal(0);
    socket.resume();
    socket.on('error', () => undefined);
    await until('the client sees the connection closed', () => socket.destroyed || socket.readableEnded);
    socket.destroy();
  });
});
