import { expect } from 'chai';
import { headers, startQuestionBank, teacher, type TestQuestionBank } from './support.js';

const PATH = '/v1/internal/questions/select-for-exam-blueprint';
const TOKEN = 'blueprint-test-internal-token';

describe('question bank: blueprint selection behind INTERNAL_API_TOKEN', () => {
  let svc: TestQuestionBank;
  before(async () => {
    svc = await startQuestionBank(import.meta.url, { INTERNAL_API_TOKEN: TOKEN });
  });
  after(() => svc.close());

  const body = { rules: [{ count: 1 }] };

  it('refuses a call without the token or with a wrong one (401)', async () => {
    const none = await svc.request.post(PATH).set(headers(teacher())).send(body);
    expect(none.status).to.equal(401);
    expect(none.body.error.code).to.equal('UNAUTHENTICATED');
    const wrong = await svc.request.post(PATH).set(headers(teacher())).set('X-Internal-Token', `${TOKEN}x`).send(body);
    expect(wrong.status).to.equal(401);
  });

  it('answers a peer that sends the token, and still needs a TEACHER or ADMIN actor', async () => {
    const res = await svc.request.post(PATH).set(headers(teacher())).set('X-Internal-Token', TOKEN).send(body);
    expect(res.status).to.equal(200);
    expect(res.body.data).to.include({ complete: false, requested: 1, selected: 0 });
    const student = { userId: 's1', role: 'STUDENT', organizationId: 'org-a' };
    const denied = await svc.request.post(PATH).set(headers(student)).set('X-Internal-Token', TOKEN).send(body);
    expect(denied.status).to.equal(403);
  });
});
