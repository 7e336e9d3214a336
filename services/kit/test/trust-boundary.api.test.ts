import { expect } from 'chai';
import { Router } from 'express';
import request from 'supertest';
import { createLogger, createMetricsRegistry, readActor } from '../src/core/index.js';
import { createApp, ok } from '../src/http/index.js';
import { LogCapture } from './support/log-capture.js';

const INTERNAL = 'internal-token-0123456789';
const WORKER = 'worker-token-0123456789ab';
const METRICS = 'metrics-token-0123456789';

function appWith(extra: Partial<Parameters<typeof createApp>[0]>) {
  const routes = Router();
  routes.get('/v1/things/:id', (req, res) => ok(res, { id: req.params.id, actor: readActor(req) }));
  routes.post('/v1/ingest', (_req, res) => ok(res, { ingested: true }));
  return createApp({
    name: 'kit-test',
    version: '1.0.0',
    routes,
    checks: {},
    logger: createLogger({ name: 'kit-test', level: 'silent', destination: new LogCapture() }),
    metrics: createMetricsRegistry(),
    openapi: {},
    ...extra,
  });
}

describe('kit trust boundary (attacker against a running app)', () => {
  it('forged actor headers without the internal token are refused before they are read', async () => {
    const app = appWith({ internalToken: INTERNAL });
    const forged = await request(app).get('/v1/things/1').set({ 'X-User-Id': 'admin', 'X-User-Role': 'ADMIN' });
    expect(forged.status).to.equal(401);
    expect(forged.body.error.code).to.equal('UNAUTHENTICATED');
    const wrong = await request(app)
      .get('/v1/things/1')
      .set({ 'X-Internal-Token': 'x'.repeat(24), 'X-User-Id': 'a' });
    expect(wrong.status).to.equal(401);
    const right = await request(app).get('/v1/things/1').set({ 'X-Internal-Token': INTERNAL, 'X-User-Id': 'u1' });
    expect(right.status).to.equal(200);
    expect(right.body.data.actor.userId).to.equal('u1');
  });

  it('the worker token opens only the routes listed for it', async () => {
    const app = appWith({ internalToken: INTERNAL, workerToken: WORKER, workerRoutes: ['POST /v1/ingest'] });
    const ingest = await request(app).post('/v1/ingest').set('X-Internal-Token', WORKER).send({});
    expect(ingest.status).to.equal(200);
    const read = await request(app).get('/v1/things/1').set('X-Internal-Token', WORKER);
    expect(read.status).to.equal(403);
    expect(read.body.error.code).to.equal('FORBIDDEN');
    // Path tricks do not widen the list: the match is on the routed path, exactly.
    const trailing = await request(app).post('/v1/ingest/').set('X-Internal-Token', WORKER).send({});
    expect(trailing.status).to.equal(403);
  });

  it('a `:name` in a worker route matches one path segment, no more', async () => {
    const app = appWith({ internalToken: INTERNAL, workerToken: WORKER, workerRoutes: ['GET /v1/things/:id'] });
    expect((await request(app).get('/v1/things/7').set('X-Internal-Token', WORKER)).status).to.equal(200);
    expect((await request(app).post('/v1/ingest').set('X-Internal-Token', WORKER).send({})).status).to.equal(403);
    expect((await request(app).get('/v1/things/7/x').set('X-Internal-Token', WORKER)).status).to.equal(403);
  });

  it('/metrics needs the metrics token as Bearer; the internal token alone does not open it', async () => {
    const app = appWith({ internalToken: INTERNAL, metricsToken: METRICS });
    expect((await request(app).get('/metrics')).status).to.equal(401);
    expect((await request(app).get('/metrics').set('X-Internal-Token', INTERNAL)).status).to.equal(401);
    const open = await request(app).get('/metrics').set('Authorization', `Bearer ${METRICS}`);
    expect(open.status).to.equal(200);
    expect(open.text).to.include('http_request_duration_seconds');
    // Health stays open for the kubelet.
    expect((await request(app).get('/healthz')).status).to.equal(200);
  });

  it('/metrics falls back to the internal token, and is open only when no token is configured', async () => {
    const guarded = appWith({ internalToken: INTERNAL });
    expect((await request(guarded).get('/metrics')).status).to.equal(401);
    expect((await request(guarded).get('/metrics').set('X-Internal-Token', INTERNAL)).status).to.equal(200);
    expect((await request(guarded).get('/metrics').set('Authorization', `Bearer ${INTERNAL}`)).status).to.equal(200);
    expect((await request(appWith({})).get('/metrics')).status).to.equal(200);
  });

  it('a malformed percent-escape in a path parameter is a 400, not a 500', async () => {
    const app = appWith({});
    for (const path of ['/v1/things/%E0%A4%A', '/v1/things/%', '/v1/things/%ZZ', '/v1/things/%C0%AF']) {
      const res = await request(app).get(path);
      expect(res.status, path).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
    }
    const good = await request(app).get('/v1/things/%E0%A4%A4');
    expect(good.status).to.equal(200);
    expect(good.body.data.id).to.equal('\u0924');
  });
});
