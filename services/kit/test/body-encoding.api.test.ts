import { gzipSync, deflateSync, brotliCompressSync } from 'node:zlib';
import { expect } from 'chai';
import { Router } from 'express';
import Joi from 'joi';
import request from 'supertest';
import { createLogger, createMetricsRegistry } from '../src/core/index.js';
import { createApp, ok, routerFor, routes as declare } from '../src/http/index.js';
import { LogCapture } from './support/log-capture.js';

// Issue 33 (9): a body whose Content-Encoding its bytes do not decode under was a 500 with an
// error-level log and a stack; an encoding nobody decodes is a 415.
function app() {
  const echo = declare<null>()({
    method: 'post',
    path: '/v1/echo',
    body: Joi.object<{ n: number }, true>({ n: Joi.number().required() }),
    doc: { summary: 'Echo', responses: {} },
    handle: (req, res) => ok(res, req.valid.body),
  });
  const routes = Router();
  routes.use(routerFor([echo], null));
  const logs = new LogCapture();
  const built = createApp({
    name: 'kit-test',
    version: '1',
    routes,
    checks: {},
    logger: createLogger({ name: 'kit-test', level: 'debug', destination: logs }),
    metrics: createMetricsRegistry(),
    openapi: {},
  });
  return { app: built, logs };
}

const json = Buffer.from('{"n":7}');
const post = (a: ReturnType<typeof app>['app'], encoding: string, body: Buffer, type = 'application/json') =>
  request(a)
    .post('/v1/echo')
    .set('Content-Type', type)
    .set('Content-Encoding', encoding)
    // The bytes as they are: superagent would otherwise serialise a Buffer as JSON.
    .serialize((b: Buffer) => b as unknown as string)
    .send(body);

describe('kit body encodings', () => {
  for (const [name, encode] of [
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const) {
    it(`decodes a well-formed ${name} JSON body`, async () => {
      const res = await post(app().app, name, encode(json));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.deep.equal({ n: 7 });
    });
  }

  for (const [name, body] of [
    ['gzip', json],
    ['gzip', gzipSync(json).subarray(0, 12)],
    ['deflate', Buffer.from('not deflate at all')],
    ['br', Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00])],
  ] as const) {
    it(`answers a body that is not ${name} (${body.length} bytes) 400 BODY_ENCODING_INVALID, logged without error or stack`, async () => {
      const { app: a, logs } = app();
      const res = await post(a, name, body);
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body).to.deep.equal({
        success: false,
        message: 'The request body is not valid data in its Content-Encoding',
        error: { code: 'BODY_ENCODING_INVALID' },
      });
      const records = logs.records();
      expect(records.filter((r) => Number(r.level) >= 40)).to.deep.equal([]);
      expect(logs.text).not.to.match(/"stack"|\bat \S+ \(/);
    });
  }

  it('answers an encoding nobody decodes 415 before reading the body', async () => {
    for (const encoding of ['compress', 'zstd-x', 'gzip, gzip', 'x-unknown']) {
      const res = await post(app().app, encoding, json);
      expect(res.status, `${encoding}: ${JSON.stringify(res.body)}`).to.equal(415);
      expect(res.body.error.code).to.equal('UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('answers an encoded multipart body 415 (uploads are read as sent)', async () => {
    const res = await post(app().app, 'gzip', gzipSync(Buffer.from('--x\r\n')), 'multipart/form-data; boundary=x');
    expect(res.status, JSON.stringify(res.body)).to.equal(415);
    expect(res.body.error.code).to.equal('UNSUPPORTED_MEDIA_TYPE');
  });

  it('takes identity as no encoding', async () => {
    const res = await post(app().app, 'identity', json);
    expect(res.status).to.equal(200);
  });
});
