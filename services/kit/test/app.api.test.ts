import { expect } from 'chai';
import { Router } from 'express';
import Joi from 'joi';
import request from 'supertest';
import { AppError, createLogger, createMetricsRegistry, readActor } from '../src/core/index.js';
import { createApp, ok, routerFor, routes as declare } from '../src/http/index.js';
import { LogCapture } from './support/log-capture.js';

function appWith(checks: Record<string, () => Promise<void>>, extra: Partial<Parameters<typeof createApp>[0]> = {}) {
  const things = declare<null>()({
    method: 'post',
    path: '/v1/things',
    body: Joi.object<{ n: number }, true>({ n: Joi.number().integer().min(1).required() }),
    doc: { summary: 'Double a number', responses: {} },
    handle: (req, res) => ok(res, { n: req.valid.body.n * 2 }, 'OK', 201),
  });
  const routes = Router();
  routes.use(routerFor([things], null));
  routes.get('/v1/actor', (req, res) => ok(res, readActor(req)));
  routes.get('/v1/boom', () => {
    throw new Error('database password is hunter2');
  });
  routes.get('/v1/things/:id', () => {
    throw new AppError('THING_NOT_FOUND', 'Thing not found', { details: { id: 'x' } });
  });
  const logs = new LogCapture();
  const app = createApp({
    name: 'kit-test',
    version: '9.9.9',
    routes,
    checks,
    logger: createLogger({ name: 'kit-test', level: 'debug', destination: logs }),
    metrics: createMetricsRegistry(),
    openapi: { openapi: '3.1.0' },
    ...extra,
  });
  return { app, logs };
}

describe('kit createApp', () => {
  it('GET /readyz answers 503 naming the failing check', async () => {
    const { app } = appWith({
      mongodb: async () => undefined,
      kafka: async () => {
        throw new Error('no brokers');
      },
    });
    const res = await request(app).get('/readyz');
    expect(res.status).to.equal(503);
    expect(res.body.message).to.equal('Not ready: kafka');
    expect(res.body.error).to.deep.equal({
      code: 'DEPENDENCY_UNAVAILABLE',
      details: { failing: ['kafka'], checks: { mongodb: 'ok', kafka: 'fail: no brokers' } },
    });
  });

  it('GET /readyz answers 503 once shutdown began, while /healthz stays 200', async () => {
    const { app } = appWith({}, { readiness: { shuttingDown: true } });
    expect((await request(app).get('/readyz')).status).to.equal(503);
    expect((await request(app).get('/healthz')).status).to.equal(200);
  });

  it('a hung check times out into a 503 instead of hanging the probe', async () => {
    const { app } = appWith({ slow: () => new Promise(() => undefined) });
    const res = await request(app).get('/readyz');
    expect(res.status).to.equal(503);
    expect(res.body.error.details.checks.slow).to.equal('fail: timed out after 2000 ms');
  });

  it('validates, converts and envelopes', async () => {
    const { app } = appWith({});
    expect((await request(app).post('/v1/things').send({ n: '3' })).body).to.deep.equal({
      success: true,
      data: { n: 6 },
      message: 'OK',
    });
    const bad = await request(app).post('/v1/things').send({ n: 0, extra: 1 });
    expect(bad.status).to.equal(400);
    expect(bad.body.error.details).to.deep.equal([
      { path: 'n', message: 'n must be greater than or equal to 1' },
      { path: 'extra', message: 'extra is not allowed' },
    ]);
  });

  it('turns an unexpected error into 500 INTERNAL_ERROR without internals, and logs it', async () => {
    const { app, logs } = appWith({});
    const res = await request(app).get('/v1/boom');
    expect(res.status).to.equal(500);
    expect(res.body).to.deep.equal({ success: false, message: 'Internal error', error: { code: 'INTERNAL_ERROR' } });
    expect(logs.records().some((r) => r.msg === 'request failed')).to.equal(true);
  });

  it('maps *_NOT_FOUND codes to 404 with details', async () => {
    const { app } = appWith({});
    const res = await request(app).get('/v1/things/x');
    expect(res.status).to.equal(404);
    expect(res.body.error).to.deep.equal({ code: 'THING_NOT_FOUND', details: { id: 'x' } });
  });

  it('reads actor headers (both spellings) and rejects an unknown role with 400', async () => {
    const { app } = appWith({});
    const res = await request(app)
      .get('/v1/actor')
      .set('X-Actor-Id', 'u-1')
      .set('X-User-Role', 'teacher')
      .set('X-Organization-Id', 'org-9');
    expect(res.body.data).to.deep.equal({ userId: 'u-1', role: 'TEACHER', organizationId: 'org-9' });
    expect((await request(app).get('/v1/actor').set('X-Actor-Role', 'ROOT')).status).to.equal(400);
    expect((await request(app).get('/v1/actor').set('X-User-Id', 'a b')).status).to.equal(400);
  });

  it('generates a request id when none (or a malformed one) is given, and logs it on the request line', async () => {
    const { app, logs } = appWith({});
    const res = await request(app).get('/healthz').set('X-Request-Id', 'bad id with spaces');
    expect(res.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    const line = logs.records().find((r) => r.msg === 'request');
    expect(line).to.include({ reqId: res.headers['x-request-id'], status: 200, service: 'kit-test' });
  });

  it('redacts secrets in any logged object', () => {
    const logs = new LogCapture();
    const logger = createLogger({ name: 'x', destination: logs });
    logger.info({ user: { password: 'p4ss', refreshToken: 'rt' }, headers: { authorization: 'Bearer abc' } }, 'hello');
    expect(logs.text).to.not.match(/p4ss|"rt"|Bearer abc/);
    expect(logs.text).to.include('[REDACTED]');
  });
});
