import { expect } from 'chai';
import { Router } from 'express';
import { createLogger, createMetricsRegistry, serve } from '../src/core/index.js';
import { createApp } from '../src/http/index.js';

async function until(condition: () => boolean, deadlineMs = 10000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met before the deadline');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('kit serve: graceful shutdown', () => {
  it('fails readiness, finishes the in-flight request, refuses new connections, then closes dependencies', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let entered = false;
    const routes = Router();
    routes.get('/v1/slow', async (_req, res) => {
      entered = true;
      await held;
      res.json({ success: true, data: 'done', message: 'OK' });
    });
    const readiness = { shuttingDown: false };
    const logger = createLogger({ name: 'kit-test', level: 'silent' });
    const app = createApp({
      name: 't',
      version: '0',
      routes,
      checks: {},
      logger,
      metrics: createMetricsRegistry(),
      openapi: {},
      readiness,
    });
    const closed: string[] = [];
    const sigtermListeners = process.listenerCount('SIGTERM');
    const running = await serve({
      app,
      port: 0,
      host: '127.0.0.1',
      logger,
      readiness,
      graceMs: 5000,
      closers: [async () => closed.push('kafka'), async () => closed.push('mongodb')],
    });
    const base = `http://127.0.0.1:${running.port}`;
    const inflight = fetch(`${base}/v1/slow`);
    await until(() => entered);
    const shutdown = running.shutdown('test');
    expect(readiness.shuttingDown).to.equal(true);
    const refused = await fetch(`${base}/healthz`).then(
      () => 'answered',
      () => 'refused',
    );
    expect(refused).to.equal('refused');
    expect(closed).to.deep.equal([]);
    release();
    const res = await inflight;
    expect(res.status).to.equal(200);
    expect(((await res.json()) as { data: string }).data).to.equal('done');
    await shutdown;
    expect(closed).to.deep.equal(['kafka', 'mongodb']);
    expect(process.listenerCount('SIGTERM')).to.equal(sigtermListeners);
  });

  it('runs beforeDrain hooks after readiness fails and before dependencies close; a failing hook does not stop the drain', async () => {
    const readiness = { shuttingDown: false };
    const logger = createLogger({ name: 'kit-test', level: 'silent' });
    const app = createApp({
      name: 't',
      version: '0',
      routes: Router(),
      checks: {},
      logger,
      metrics: createMetricsRegistry(),
      openapi: {},
      readiness,
    });
    const order: string[] = [];
    const sigtermListeners = process.listenerCount('SIGTERM');
    const running = await serve({
      app,
      port: 0,
      host: '127.0.0.1',
      logger,
      readiness,
      graceMs: 5000,
      handleSignals: false,
      beforeDrain: [
        () => {
          order.push(`streams closed (ready: ${!readiness.shuttingDown})`);
          throw new Error('hook failed');
        },
        async () => void order.push('second hook'),
      ],
      closers: [async () => order.push('workers'), async () => order.push('mongodb')],
    });
    await running.shutdown('test');
    expect(order).to.deep.equal(['streams closed (ready: false)', 'second hook', 'workers', 'mongodb']);
    expect(process.listenerCount('SIGTERM')).to.equal(sigtermListeners);
  });

  it('with delayMs, keeps answering after the signal, readiness failing and every response closing its connection, then stops accepting', async () => {
    const readiness = { shuttingDown: false };
    const logger = createLogger({ name: 'kit-test', level: 'silent' });
    const app = createApp({
      name: 't',
      version: '0',
      routes: Router(),
      checks: {},
      logger,
      metrics: createMetricsRegistry(),
      openapi: {},
      readiness,
    });
    const closed: string[] = [];
    const running = await serve({
      app,
      port: 0,
      host: '127.0.0.1',
      logger,
      readiness,
      graceMs: 5000,
      // Long enough that the requests below surely arrive inside it, on any machine.
      delayMs: 5000,
      handleSignals: false,
      closers: [async () => closed.push('mongodb')],
    });
    const base = `http://127.0.0.1:${running.port}`;
    const shutdown = running.shutdown('test');
    const health = await fetch(`${base}/healthz`);
    expect(health.status).to.equal(200);
    expect(health.headers.get('connection')).to.equal('close');
    expect((await fetch(`${base}/readyz`)).status).to.equal(503);
    expect(closed).to.deep.equal([]);
    await shutdown;
    expect(closed).to.deep.equal(['mongodb']);
    const after = await fetch(`${base}/healthz`).then(
      () => 'answered',
      () => 'refused',
    );
    expect(after).to.equal('refused');
  });
});
