import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { SERVICE_NAMES, startStack, type Stack } from './support/stack.js';
import { call } from './support/http.js';

// Issue 33 (9): a body that claims gzip or deflate but is not was a 500 (with an error-level log
// and a stack) on every service, and anonymous through the gateway's auth routes.
describe('security: request bodies in a Content-Encoding (real processes, NODE_ENV=production)', function () {
  this.timeout(180000);
  let stack: Stack;
  before(async () => {
    stack = await startStack(import.meta.url);
  });
  after(() => stack?.close());

  const post = (url: string, encoding: string, body: Uint8Array, extra: Record<string, string> = {}) =>
    call(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': encoding, ...extra },
      body,
    });
  const notGzip = Buffer.from('{"email":"a@b.example","password":"not compressed"}');
  const truncated = gzipSync(notGzip).subarray(0, 15);
  const paths: Record<(typeof SERVICE_NAMES)[number], string> = {
    auth: '/v1/auth/login',
    user: '/v1/users/u1/profile-snapshot',
    analytics: '/v1/analytics/events',
    notification: '/v1/notifications',
    'question-bank': '/v1/questions',
    attempt: '/v1/attempts',
    'document-import': '/v1/import/docx/docx-fast-jobs',
  };

  it('anonymous, through the gateway: a corrupt gzip or deflate body to login is a 400 in the envelope', async () => {
    for (const [encoding, body] of [
      ['gzip', notGzip],
      ['gzip', truncated],
      ['deflate', notGzip],
    ] as const) {
      const res = await post(`${stack.gateway}/api/auth/login`, encoding, body);
      expect(res.status, `${encoding}: ${res.text}`).to.equal(400);
      expect(res.body).to.deep.include({ success: false });
      expect(res.body.error?.code).to.equal('BODY_ENCODING_INVALID');
    }
    const unknown = await post(`${stack.gateway}/api/auth/login`, 'compress', notGzip);
    expect(unknown.status, unknown.text).to.equal(415);
    expect(unknown.body.error?.code).to.equal('UNSUPPORTED_MEDIA_TYPE');
    const fine = await post(`${stack.gateway}/api/auth/login`, 'gzip', gzipSync(notGzip));
    expect(fine.status, fine.text).to.equal(401);
  });

  it('every service answers a corrupt encoding 400 BODY_ENCODING_INVALID and an unknown one 415, never a 500', async () => {
    const headers = {
      'X-Internal-Token': stack.secrets.internal,
      'X-User-Id': 'u1',
      'X-User-Role': 'ADMIN',
      'X-Organization-Id': 'org-a',
    };
    for (const name of SERVICE_NAMES) {
      const url = `${stack.services[name]}${paths[name]}`;
      const corrupt = await post(url, 'gzip', notGzip, headers);
      expect(corrupt.status, `${name}: ${corrupt.text}`).to.equal(400);
      expect(corrupt.body.error?.code, name).to.equal('BODY_ENCODING_INVALID');
      const unknown = await post(url, 'x-compress', notGzip, headers);
      expect(unknown.status, `${name}: ${unknown.text}`).to.equal(415);
      const health = await call(`${stack.services[name]}/healthz`);
      expect(health.status, name).to.equal(200);
    }
  });
});
