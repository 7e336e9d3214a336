import { expect } from 'chai';
import { Router } from 'express';
import { createApp, createLogger, createMetricsRegistry, serve } from '../src/index.js';

describe('kit serve: graceful shutdown', () => {
  it('fails readiness, finishes the in-flight request, refuses new connections, then closes dependencies', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const routes = Router();
    routes.get('/v1/slow', async (_req, res) => {
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
    await new Promise((r) => setTimeout(r, 100));
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
  });
});
