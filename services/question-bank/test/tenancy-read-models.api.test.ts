// Issue 20, as an attacker tries it: a teacher (or an ADMIN) of school A aims the read-model
// backfill routes at school B's rows over HTTP, then school B looks at what it is left with.
import { expect } from 'chai';
import {
  admin,
  choiceBody,
  createAs,
  headers,
  startQuestionBank,
  teacher,
  type TestQuestionBank,
  type Who,
} from './support.js';

const A = teacher('ta', 'org-a');
const adminA = admin('aa', 'org-a');
const B = teacher('tb', 'org-b');
const adminB = admin('ab', 'org-b');

describe('tenancy: read-model backfills never cross organizations (issue 20)', () => {
  let svc: TestQuestionBank;
  let qb = '';
  before(async () => (svc = await startQuestionBank(import.meta.url)));
  after(() => svc.close());

  const put = (who: Who, path: string, body: object) => svc.request.put(path).set(headers(who)).send(body);
  const asB = (id: string) => svc.request.get(`/v1/questions/${id}`).set(headers(B)).expect(200);

  beforeEach(async () => {
    await svc.clearCollections();
    qb = (await createAs(svc, B, choiceBody({ status: 'PUBLISHED', chapterId: 'ch-b' }))).id;
    await put(adminB, '/v1/taxonomy/refs', {
      items: [{ id: 'ch-b', kind: 'CHAPTER', code: 'C1', name: 'Hàm số' }],
    }).expect(200);
    await put(adminB, '/v1/questions/usage-counts', {
      items: [{ questionId: qb, examItems: 3, attemptItems: 40, answers: 40 }],
    }).expect(200);
    await put(adminB, '/v1/questions/relation-refs', {
      users: [{ id: 'tb', fullName: 'Cô Bình', email: 'binh@b.edu.vn' }],
      organizations: [{ id: 'org-b', name: 'THPT B', slug: 'thpt-b' }],
    }).expect(200);
    const exam = { questionId: qb, examId: 'exam-b', title: 'Giữa kỳ B', status: 'PUBLISHED' };
    await put(adminB, '/v1/questions/exam-refs', { exams: [{ ...exam, createdAt: '2026-01-02T03:04:05Z' }] }).expect(
      200,
    );
  });

  it('refuses to zero another organization usage counts, so its DELETE still archives a used question', async () => {
    for (const who of [A, adminA]) {
      const zero = { items: [{ questionId: qb, examItems: 0, attemptItems: 0, answers: 0 }] };
      const res = await put(who, '/v1/questions/usage-counts', zero);
      expect(res.status, who.role).to.equal(409);
      expect(res.body.error.code).to.equal('READ_MODEL_ID_CONFLICT');
      expect(JSON.stringify(res.body)).to.not.contain('org-b');
      const named = { items: [{ ...zero.items[0], organizationId: 'org-b' }] };
      expect((await put(who, '/v1/questions/usage-counts', named)).status, who.role).to.equal(403);
    }
    expect((await asB(qb)).body.data._count).to.deep.equal({ examItems: 3, attemptItems: 40, answers: 40 });
    const del = await svc.request.delete(`/v1/questions/${qb}`).set(headers(B)).expect(200);
    expect(del.body.data).to.deep.equal({ id: qb, deleted: false, archived: true });
  });

  it('refuses to rename another organization, its users or its taxonomy, or to write global rows', async () => {
    const org = { organizations: [{ id: 'org-b', name: 'Hacked', slug: 'hacked' }] };
    expect((await put(A, '/v1/questions/relation-refs', org)).status).to.equal(403);
    expect((await put(adminA, '/v1/questions/relation-refs', org)).status).to.equal(403);
    const scoped = { organizations: [{ id: 'org-a', name: 'A', slug: 'a', organizationId: 'org-b' }] };
    expect((await put(adminA, '/v1/questions/relation-refs', scoped)).status).to.equal(403);
    const user = { users: [{ id: 'tb', fullName: 'Kẻ mạo danh', email: 'evil@a.vn' }] };
    const userRes = await put(adminA, '/v1/questions/relation-refs', user);
    expect(userRes.status).to.equal(409);
    expect(userRes.body.error.details).to.deep.equal([
      { path: 'users.0.id', message: 'is held by another organization; nothing was written' },
    ]);
    const ref = { id: 'ch-b', kind: 'CHAPTER', code: 'X', name: 'Đã bị đổi' };
    expect((await put(A, '/v1/taxonomy/refs', { items: [ref] })).status).to.equal(409);
    expect((await put(adminA, '/v1/taxonomy/refs', { items: [{ ...ref, organizationId: 'org-b' }] })).status).to.equal(
      403,
    );
    const global = { items: [{ id: 'g-new', kind: 'SUBJECT', code: 'G', name: 'G', organizationId: null }] };
    expect((await put(adminA, '/v1/taxonomy/refs', global)).status).to.equal(403);
    const seen = (await asB(qb)).body.data;
    expect(seen.organization).to.deep.equal({ id: 'org-b', name: 'THPT B', slug: 'thpt-b' });
    expect(seen.createdBy).to.include({ fullName: 'Cô Bình', email: 'binh@b.edu.vn' });
    expect(seen.chapter).to.include({ id: 'ch-b', name: 'Hàm số' });
  });

  it('refuses exam refs of another organization question; its delete impact still lists its exam', async () => {
    const exam = { questionId: qb, examId: 'exam-b', title: 'x', status: 'DRAFT', createdAt: '2020-01-01T00:00:00Z' };
    expect((await put(adminA, '/v1/questions/exam-refs', { exams: [exam] })).status).to.equal(409);
    const impact = await svc.request
      .post('/v1/questions/permanent-delete-impact')
      .set(headers(B))
      .send({ ids: [qb] })
      .expect(200);
    expect(impact.body.data.affectedExams.map((e: { title: string }) => e.title)).to.deep.equal(['Giữa kỳ B']);
  });

  it('lets only ADMIN or TEACHER with an organization call a backfill', async () => {
    const body = { items: [{ questionId: 'q-new', examItems: 0, attemptItems: 0, answers: 0 }] };
    const roles: Array<[Who, number]> = [
      [{ userId: 's', role: 'STUDENT', organizationId: 'org-a' }, 403],
      [{ userId: 'p', role: 'PARENT', organizationId: 'org-a' }, 403],
      [{ userId: 'n', organizationId: 'org-a' }, 403],
      [{ organizationId: 'org-a' }, 401],
      [{ userId: 't', role: 'TEACHER' }, 400],
      [{ userId: 'x', role: 'ADMIN' }, 400],
    ];
    for (const [who, status] of roles) {
      expect((await put(who, '/v1/questions/usage-counts', body)).status, JSON.stringify(who)).to.equal(status);
    }
    // Taxonomy has global rows: naming no organization asks for them, which only the platform may.
    const topic = { items: [{ id: 'topic-global-try', kind: 'SUBJECT', code: 'T', name: 'Chủ đề' }] };
    const teacher = await put({ userId: 't', role: 'TEACHER' }, '/v1/taxonomy/refs', topic);
    expect(teacher.status).to.equal(403);
  });

  it('reads no other organization: allOrgs only for the platform ADMIN, organizationId only as the header', async () => {
    for (const path of ['/v1/questions', '/v1/question-groups', '/v1/question-folders', '/v1/taxonomy/refs']) {
      const all = await svc.request.get(path).set(headers(adminA)).query({ allOrgs: '1' });
      expect(all.status, path).to.equal(403);
      const named = await svc.request.get(path).query({ organizationId: 'org-b' });
      expect(named.status, path).to.equal(403);
      const other = await svc.request.get(path).set(headers(adminA)).query({ organizationId: 'org-b' });
      expect(other.status, path).to.equal(403);
    }
    await svc.request.get(`/v1/questions/${qb}`).set(headers(adminA)).expect(404);
  });
});
