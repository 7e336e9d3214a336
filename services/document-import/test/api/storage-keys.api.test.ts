import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import supertest from 'supertest';
import { headers, simpleDocx, teacher, type Who } from './support.js';
import { startStack, type Stack } from './stack.js';

// Issue 33 (11): a fast job naming another school's storage key imported its stored exam.
describe("document-import: another organization's storage key is not found", () => {
  let stack: Stack;
  let docx: Buffer;
  before(async () => {
    stack = await startStack(import.meta.url);
    docx = await simpleDocx();
  });
  after(() => stack?.close());

  const schoolB: Who = { userId: 'tb', organizationId: 'org-b', role: 'TEACHER' };
  const adminB: Who = { userId: 'ab', organizationId: 'org-b', role: 'ADMIN' };
  const fast = (key: string, who: Who, idempotencyKey?: string) => {
    const req = stack.svc.request.post('/v1/import/docx/docx-fast-jobs').set(headers(who));
    if (idempotencyKey) void req.set('Idempotency-Key', idempotencyKey);
    return req.send({
      questionStorageKey: key,
      questionFileName: 'de.docx',
      title: 'Đề',
      autoApproveToQuestionBank: false,
    });
  };

  it("answers 404 STORAGE_OBJECT_NOT_FOUND, as for an unknown key, when the key is another organization's, and queues nothing", async () => {
    const key = `tests/${randomUUID()}/de.docx`;
    const stored = await supertest(stack.peer.url)
      .put('/v1/storage/objects')
      .query({ key })
      .set('Content-Type', 'application/octet-stream')
      .set('X-Organization-Id', 'org-a')
      .send(docx);
    expect(stored.status).to.equal(200);
    const own = await fast(key, teacher());
    expect(own.status, JSON.stringify(own.body)).to.equal(202);
    const jobs = () => stack.svc.db.conn.collection('import_jobs').countDocuments({ organizationId: 'org-b' });
    for (const who of [schoolB, adminB]) {
      const res = await fast(key, who, 'same-key');
      expect(res.status, JSON.stringify(res.body)).to.equal(404);
      expect(res.body.error.code).to.equal('STORAGE_OBJECT_NOT_FOUND');
      const unknown = await fast(`tests/${randomUUID()}/none.docx`, who);
      expect(unknown.status).to.equal(404);
      expect(unknown.body.error.code).to.equal(res.body.error.code);
      expect(unknown.body.message).to.equal(res.body.message);
    }
    expect(await jobs()).to.equal(0);
    // The owner's organization still uses it (another teacher there too).
    const again = await fast(key, teacher('t2'));
    expect(again.status, JSON.stringify(again.body)).to.equal(202);
  });
});
