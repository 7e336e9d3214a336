import { expect } from 'chai';
import { SERVICE_NAMES, startStack, type Stack } from './support/stack.js';
import { call } from './support/http.js';
import { runToExit } from './support/processes.js';

// Who may speak for a user: only the gateway, holding the internal token. An attacker who reaches
// a service's port directly (another pod, a port-forward) and forges actor headers gets nothing.
describe('security: the trust boundary (real processes, NODE_ENV=production)', function () {
  this.timeout(180000);
  let stack: Stack;
  before(async () => {
    stack = await startStack(import.meta.url);
  });
  after(() => stack?.close());

  const forged = { 'X-User-Id': 'root', 'X-User-Role': 'ADMIN', 'X-Actor-Id': 'root', 'X-Actor-Role': 'ADMIN' };
  const probes: Record<string, string> = {
    auth: '/v1/auth/me',
    user: '/v1/users/u1/profile',
    analytics: '/v1/analytics/results',
    notification: '/v1/notifications',
    'question-bank': '/v1/questions',
    attempt: '/v1/attempts/a1',
    'document-import': '/v1/import/docx/jobs',
  };

  it('every service refuses forged actor headers without the internal token', async () => {
    for (const name of SERVICE_NAMES) {
      const res = await call(`${stack.services[name]}${probes[name]}`, { headers: forged });
      expect(res.status, name).to.equal(401);
      expect(res.body.error?.code, name).to.equal('UNAUTHENTICATED');
    }
  });

  it('every service refuses to start in production without the internal token', async () => {
    const { INTERNAL_API_TOKEN: _dropped, ...env } = stack.baseEnv;
    for (const name of SERVICE_NAMES) {
      const run = await runToExit(name, { ...env, MONGODB_DB: 'edu_security_never_used' });
      expect(run.code, name).to.equal(1);
      expect(run.output, name).to.include('"INTERNAL_API_TOKEN" is required in production');
    }
  });

  it('/metrics of every service needs the metrics token', async () => {
    for (const name of SERVICE_NAMES) {
      const open = await call(`${stack.services[name]}/metrics`);
      expect(open.status, name).to.equal(401);
      const internal = await call(`${stack.services[name]}/metrics`, {
        headers: { 'X-Internal-Token': stack.secrets.internal },
      });
      expect(internal.status, `${name} with the internal token`).to.equal(401);
      const scraped = await call(`${stack.services[name]}/metrics`, {
        headers: { Authorization: `Bearer ${stack.secrets.metrics}` },
      });
      expect(scraped.status, name).to.equal(200);
      expect((await call(`${stack.services[name]}/healthz`)).status, name).to.equal(200);
    }
  });

  it("the DOCX workers' token opens the question bank's ingest route and nothing else", async () => {
    const qb = stack.services['question-bank'];
    const asWorker = { 'X-Internal-Token': stack.secrets.worker, ...forged, 'X-Organization-Id': 'org-a' };
    const list = await call(`${qb}/v1/questions`, { headers: asWorker });
    expect(list.status).to.equal(403);
    const ingest = await call(`${qb}/v1/questions/import-docx-output`, { method: 'POST', headers: asWorker, json: {} });
    expect(ingest.status).to.not.be.oneOf([401, 403]);
    for (const name of SERVICE_NAMES.filter((n) => n !== 'question-bank')) {
      const res = await call(`${stack.services[name]}${probes[name]}`, { headers: asWorker });
      expect(res.status, name).to.be.oneOf([401, 403]);
    }
  });

  it('a malformed percent-escape in a path parameter is a 400 on every service, never a 500', async () => {
    const bad = '%E0%A4%A';
    const paths: Record<string, string> = {
      user: `/v1/users/${bad}/profile`,
      analytics: `/v1/analytics/exams/${bad}/summary`,
      notification: `/v1/notifications/${bad}`,
      'question-bank': `/v1/questions/${bad}`,
      attempt: `/v1/attempts/${bad}`,
      'document-import': `/v1/import/docx/jobs/${bad}`,
    };
    const who = { 'X-Internal-Token': stack.secrets.internal, ...forged, 'X-Organization-Id': 'org-a' };
    for (const [name, path] of Object.entries(paths)) {
      const res = await call(`${stack.services[name as keyof Stack['services']]}${path}`, { headers: who });
      expect(res.status, name).to.equal(400);
      expect(res.body.error?.code, name).to.equal('VALIDATION_ERROR');
    }
  });
});
