import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { RunningPeer } from '../services/peers/src/index.js';
import { documentPeer, storeDocx } from './support/documents.js';
import { testDbName, testKafkaBrokers } from '../services/kit/test/support/servers.js';
import { startStack, type Stack } from './support/stack.js';
import { launch, type ServiceProcess } from './support/processes.js';
import { call } from './support/http.js';

// Issue 33 (11): a DOCX Fast job naming another school's document storage key imported that
// school's stored exam, answer key included. The attacker is a TEACHER (or ADMIN) of school B.
describe("security: a document storage key stays its school's (real processes, NODE_ENV=production)", function () {
  this.timeout(180000);
  let stack: Stack;
  let peer: RunningPeer<unknown>;
  let importer: ServiceProcess;
  before(async () => {
    stack = await startStack(import.meta.url);
    peer = await documentPeer(stack, import.meta.url);
    const tag = randomUUID().slice(0, 8);
    importer = await launch('document-import', 'document-import', {
      ...stack.baseEnv,
      MONGODB_DB: testDbName('document_import_keys', import.meta.url),
      KAFKA_BROKERS: testKafkaBrokers().join(','),
      DOCUMENT_SERVICE_URL: peer.url,
      DOCX_IMPORT_TOPIC: `docx-import.jobs.k-${tag}`,
      DOCX_IMPORT_EVENTS_TOPIC: `docx-import.job-events.k-${tag}`,
      DOCX_IMPORT_CONSUMER_GROUP: `docx-parser-k-${tag}`,
    });
  });
  after(async () => {
    await importer?.stop();
    await peer?.close();
    await stack?.close();
  });

  const as = (userId: string, role: string, organizationId: string) => ({
    'X-Internal-Token': stack.secrets.internal,
    'X-User-Id': userId,
    'X-User-Role': role,
    'X-Organization-Id': organizationId,
  });
  const fastJob = (key: string, headers: Record<string, string>) =>
    call(`${importer.url}/v1/import/docx/docx-fast-jobs`, {
      method: 'POST',
      headers,
      json: { questionStorageKey: key, questionFileName: 'de.docx', title: 'Đề', autoApproveToQuestionBank: true },
    });

  it("school B's fast job naming school A's key is 404 like an unknown key, and nothing is queued", async () => {
    const key = `uploads/2026-12-02/${randomUUID()}/de-thi-hk1.docx`;
    await storeDocx(stack, peer, key, 'school-a');
    const own = await fastJob(key, as('teacher-a', 'TEACHER', 'school-a'));
    expect(own.status, own.text).to.equal(202);
    const unknown = await fastJob(`uploads/2026-12-02/${randomUUID()}/x.docx`, as('teacher-b', 'TEACHER', 'school-b'));
    expect(unknown.status, unknown.text).to.equal(404);
    for (const [user, role] of [
      ['teacher-b', 'TEACHER'],
      ['admin-b', 'ADMIN'],
    ]) {
      const res = await fastJob(key, as(user!, role!, 'school-b'));
      expect(res.status, `${role}: ${res.text}`).to.equal(404);
      expect(res.body.error?.code).to.equal(unknown.body.error?.code);
      expect(res.body.message).to.equal(unknown.body.message);
      const jobs = await call(`${importer.url}/v1/import/docx/jobs`, { headers: as(user!, role!, 'school-b') });
      expect(jobs.status, jobs.text).to.equal(200);
      expect(jobs.text).not.to.include(key);
    }
  });
});
