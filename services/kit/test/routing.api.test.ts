import { expect } from 'chai';
import { Router, type Request, type Response } from 'express';
import request from 'supertest';
import { createLogger, createMetricsRegistry } from '../src/core/index.js';
import { createApp, ok } from '../src/http/index.js';
import { LogCapture } from './support/log-capture.js';

/** Routes shaped like auth's, plus a router mounted under a prefix with a parameter. */
function authLikeApp() {
  const routes = Router();
  const answer = (_req: Request, res: Response) => ok(res, { done: true });
  routes.post('/v1/auth/login', answer);
  routes.post('/v1/auth/logout', answer);
  routes.get('/v1/auth/me', answer);
  routes.get('/v1/items', answer);
  routes.post('/v1/items', answer);
  const nested = Router();
  nested.get('/:id', answer);
  nested.delete('/:id', answer);
  routes.use('/v1/nested', nested);
  // Reads the raw stream, as an upload route does after the kit let a multipart body through.
  routes.post('/v1/raw', async (req, res) => {
    let bytes = 0;
    for await (const chunk of req) bytes += (chunk as Buffer).length;
    ok(res, { bytes, type: req.headers['content-type'] ?? '' });
  });
  routes.get('/v1/talk', (req, res) => {
    req.log?.info('from the route');
    ok(res, { id: req.id });
  });
  const logs = new LogCapture();
  const app = createApp({
    name: 'routing-test',
    version: '1',
    routes,
    checks: {},
    logger: createLogger({ name: 'routing-test', level: 'debug', destination: logs }),
    metrics: createMetricsRegistry(),
    openapi: {},
  });
  return { app, logs };
}

describe('kit createApp: a method the path does not have', () => {
  const { app } = authLikeApp();

  it('answers 405 METHOD_NOT_ALLOWED with Allow naming the one declared method', async () => {
    const res = await request(app).get('/v1/auth/login');
    expect(res.status).to.equal(405);
    expect(res.headers.allow).to.equal('POST');
    expect(res.body).to.deep.equal({
      success: false,
      message: 'Method GET is not allowed for /v1/auth/login',
      error: { code: 'METHOD_NOT_ALLOWED', details: { allow: ['POST'] } },
    });
  });

  it('lists every method of a path declared twice, with HEAD beside GET', async () => {
    const res = await request(app).delete('/v1/items');
    expect(res.status).to.equal(405);
    expect(res.headers.allow).to.equal('GET, HEAD, POST');
  });

  it("answers POST /healthz with 405 Allow: GET, HEAD (the kit's own routes count)", async () => {
    const res = await request(app).post('/healthz').send({});
    expect(res.status).to.equal(405);
    expect(res.headers.allow).to.equal('GET, HEAD');
    expect(res.body.error.code).to.equal('METHOD_NOT_ALLOWED');
    expect((await request(app).put('/v1/openapi.json')).headers.allow).to.equal('GET, HEAD');
  });

  it('answers OPTIONS with 200 and Allow, on the kit paths as Express does on the service routes', async () => {
    for (const [path, allow] of [
      ['/healthz', 'GET, HEAD'],
      ['/v1/items', 'GET, HEAD, POST'],
    ]) {
      const res = await request(app).options(path!);
      expect(res.status, path).to.equal(200);
      expect(res.headers.allow, path).to.equal(allow);
    }
  });

  it('matches parameters inside a router mounted under a prefix', async () => {
    const res = await request(app).patch('/v1/nested/42');
    expect(res.status).to.equal(405);
    expect(res.headers.allow).to.equal('DELETE, GET, HEAD');
    expect((await request(app).get('/v1/nested/42')).status).to.equal(200);
  });

  it('keeps 404 ROUTE_NOT_FOUND, without Allow, for a path nobody declared', async () => {
    for (const res of [await request(app).get('/v1/nothing'), await request(app).post('/v1/nested/1/deeper')]) {
      expect(res.status).to.equal(404);
      expect(res.headers.allow).to.equal(undefined);
      expect(res.body.error.code).to.equal('ROUTE_NOT_FOUND');
    }
  });

  it('still serves the declared methods, and the kit paths with a trailing slash or other case', async () => {
    expect((await request(app).post('/v1/auth/login')).status).to.equal(200);
    expect((await request(app).head('/v1/auth/me')).status).to.equal(200);
    expect((await request(app).get('/healthz/')).status).to.equal(200);
    expect((await request(app).get('/HEALTHZ')).status).to.equal(200);
  });
});

describe('kit createApp: request bodies', () => {
  const { app } = authLikeApp();

  it('lets a multipart/form-data body through to the route, untouched', async () => {
    const res = await request(app).post('/v1/raw').attach('file', Buffer.from('hello docx'), 'a.docx');
    expect(res.status).to.equal(200);
    expect(res.body.data.type).to.match(/^multipart\/form-data; boundary=/);
    expect(res.body.data.bytes).to.be.greaterThan('hello docx'.length);
  });

  it('refuses any other non-JSON body with 415 before a route sees it', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await request(app).post('/v1/raw').set('content-type', type).send('a=1');
      expect(res.status, type).to.equal(415);
      expect(res.body.error.code).to.equal('UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('parses JSON, and answers malformed JSON with 400, not 500', async () => {
    const res = await request(app).post('/v1/raw').set('content-type', 'application/json').send('{"a":');
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('VALIDATION_ERROR');
  });
});

describe('kit createApp: request line, req.log and the duration histogram', () => {
  it('writes one request line per request with method, route template, status and ms', async () => {
    const { app, logs } = authLikeApp();
    await request(app).get('/v1/nested/7');
    await request(app).get('/v1/missing');
    const lines = logs.records().filter((r) => r.msg === 'request');
    expect(lines).to.have.length(2);
    expect(lines[0]).to.include({ method: 'GET', route: '/v1/nested/:id', status: 200 });
    expect(lines[0]!.ms).to.be.a('number');
    expect(lines[1]).to.include({ method: 'GET', status: 404 });
    expect(lines[1]!.route).to.equal(undefined);
  });

  it("binds req.log to the request's id when a route logs", async () => {
    const { app, logs } = authLikeApp();
    const res = await request(app).get('/v1/talk').set('X-Request-Id', 'req-123');
    expect(res.body.data.id).to.equal('req-123');
    expect(logs.records().find((r) => r.msg === 'from the route')).to.include({ reqId: 'req-123' });
    expect(logs.records().find((r) => r.msg === 'request')).to.include({ reqId: 'req-123', route: '/v1/talk' });
  });

  it('exposes http_request_duration_seconds by method, route template and status', async () => {
    const { app } = authLikeApp();
    await request(app).get('/v1/nested/1');
    await request(app).get('/v1/nested/2');
    await request(app).post('/v1/nested/2');
    const text = (await request(app).get('/metrics')).text;
    expect(text).to.include('# TYPE http_request_duration_seconds histogram');
    expect(text).to.match(
      /http_request_duration_seconds_count\{method="GET",route="\/v1\/nested\/:id",status="200"\} 2/,
    );
    expect(text).to.match(
      /http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/v1\/nested\/:id",status="200"\} 2/,
    );
    expect(text).to.match(/http_request_duration_seconds_count\{method="POST",route="unmatched",status="405"\} 1/);
  });
});
