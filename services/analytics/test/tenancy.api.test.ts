import { expect } from 'chai';
import { put, snapshot, startAnalytics, type TestAnalytics } from './support.js';

// An attacker's view: a user of one school (or a self-registered account in its own workspace)
// asks for another school's results, a student for classmates', a parent for anything.
describe('analytics tenancy (user actors read inside their organization only)', function () {
  this.timeout(60000);
  let svc: TestAnalytics;
  before(async () => {
    svc = await startAnalytics(import.meta.url, { ANALYTICS_CONSUMER: 'off' });
    await svc.clearCollections();
    await put(svc, 'a-1', snapshot({ student: { id: 'stu-a1' } }), 'school-a').expect(200);
    await put(svc, 'a-2', snapshot({ student: { id: 'stu-a2' } }), 'school-a').expect(200);
    await put(svc, 'b-1', snapshot({ student: { id: 'stu-b1' } }), 'school-b').expect(200);
  });
  after(() => svc?.close());

  const as = (userId: string, role: string | null, org: string | null) => ({
    'X-User-Id': userId,
    ...(role ? { 'X-User-Role': role } : {}),
    ...(org ? { 'X-Organization-Id': org } : {}),
  });
  const ids = (res: { body: { data: { items?: Array<{ attemptId: string }> } | Array<{ attemptId: string }> } }) => {
    const data = res.body.data as { items?: Array<{ attemptId: string }> } | Array<{ attemptId: string }>;
    const items = Array.isArray(data) ? data : (data.items ?? []);
    return items.map((r) => r.attemptId).sort();
  };

  it("a teacher of school A sees A's results, never B's", async () => {
    const res = await svc.request
      .get('/v1/analytics/results')
      .set(as('t-a', 'TEACHER', 'school-a'))
      .expect(200);
    expect(ids(res)).to.deep.equal(['a-1', 'a-2']);
    const probe = await svc.request
      .get('/v1/analytics/students/stu-b1/summary')
      .set(as('t-a', 'TEACHER', 'school-a'))
      .expect(200);
    expect(probe.body.data.attemptCount).to.equal(0);
  });

  it('a user naming no organization is refused instead of reading every school', async () => {
    for (const path of ['/v1/analytics/results', '/v1/analytics/weak-topics', '/v1/analytics/events']) {
      const res = await svc.request.get(path).set(as('t-a', 'TEACHER', null));
      expect(res.status, path).to.equal(403);
      expect(res.body.error.code).to.equal('FORBIDDEN');
    }
  });

  it('a student sees only their own results, and cannot ask for a classmate', async () => {
    const own = await svc.request
      .get('/v1/analytics/results')
      .set(as('stu-a1', 'STUDENT', 'school-a'))
      .expect(200);
    expect(ids(own)).to.deep.equal(['a-1']);
    const other = await svc.request
      .get('/v1/analytics/results')
      .query({ studentId: 'stu-a2' })
      .set(as('stu-a1', 'STUDENT', 'school-a'));
    expect(other.status).to.equal(403);
    const summary = await svc.request
      .get('/v1/analytics/students/stu-a2/summary')
      .set(as('stu-a1', 'STUDENT', 'school-a'));
    expect(summary.status).to.equal(403);
  });

  it('a parent or a role-less user reads nothing', async () => {
    for (const role of ['PARENT', null]) {
      const res = await svc.request.get('/v1/analytics/weak-topics').set(as('p-1', role, 'school-a'));
      expect(res.status, String(role)).to.equal(403);
    }
  });

  it('a call without a user (a platform service) still reads what it names', async () => {
    const res = await svc.request.get('/v1/analytics/results').set({ 'X-Organization-Id': 'school-b' }).expect(200);
    expect(ids(res)).to.deep.equal(['b-1']);
  });
});
