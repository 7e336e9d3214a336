import { expect } from 'chai';
import { startTestService, type TestService } from '../../kit/test/support/harness.js';
import type { QuestionBankConfig } from '../src/config.js';
import { questionBankService, type BuiltQuestionBank } from '../src/service.js';

const CORE = [
  'ESSAY',
  'MULTIPLE_CHOICE',
  'PASSAGE_READING',
  'SHORT_ANSWER',
  'SHORT_NUMERIC_ANSWER',
  'SINGLE_CHOICE',
  'TRUE_FALSE',
  'TRUE_FALSE_GROUP',
];

const as = (user: string, role: string, org?: string) => ({
  'X-User-Id': user,
  'X-User-Role': role,
  ...(org ? { 'X-Organization-Id': org } : {}),
});
const teacher = as('t1', 'TEACHER', 'org-a');
const teacher2 = as('t2', 'TEACHER', 'org-a');
const admin = as('a1', 'ADMIN', 'org-a');

describe('question types', () => {
  let svc: TestService<QuestionBankConfig, BuiltQuestionBank>;
  before(async () => (svc = await startTestService(questionBankService, { file: import.meta.url })));
  after(() => svc.close());
  beforeEach(() => svc.clearCollections());

  const create = (body: object, headers = teacher) => svc.request.post('/v1/question-types').set(headers).send(body);
  const custom = async (code = 'my_type', headers = teacher) =>
    (await create({ code, name: 'Mine', baseType: 'ESSAY' }, headers).expect(201)).body.data;

  describe('GET /v1/question-types', () => {
    it('seeds the eight core types ACTIVE with ids equal to the code when no organization is named', async () => {
      const res = await svc.request.get('/v1/question-types').expect(200);
      expect(res.body).to.include({ success: true, message: 'OK' });
      const systems = res.body.data.filter((t: { isSystem: boolean }) => t.isSystem);
      expect(systems.map((t: { id: string }) => t.id).sort()).to.deep.equal(CORE);
      const states = systems.map((t: { status: string; usageCount: number }) => `${t.status}/${t.usageCount}`);
      expect(new Set(states)).to.deep.equal(new Set(['ACTIVE/0']));
    });

    it('seeds deterministic per-organization ids, the same on every request and distinct per organization', async () => {
      const a1 = await svc.request.get('/v1/question-types').set(teacher).expect(200);
      const a2 = await svc.request.get('/v1/question-types').set(teacher).expect(200);
      const b = await svc.request
        .get('/v1/question-types')
        .set(as('tb', 'TEACHER', 'org-b'))
        .expect(200);
      const ids = (r: { body: { data: Array<{ id: string }> } }) => r.body.data.map((t) => t.id).sort();
      expect(ids(a1)).to.deep.equal(CORE.map((c) => `org-a:${c}`));
      expect(ids(a2)).to.deep.equal(ids(a1));
      expect(ids(b)).to.deep.equal(CORE.map((c) => `org-b:${c}`));
      expect(await svc.built.deps.models.QuestionTypeDefinition.countDocuments({ organizationId: 'org-a' })).to.equal(
        8,
      );
    });

    it('seeds a scope once when its first requests arrive together', async () => {
      const org = as('t1', 'TEACHER', 'org-race');
      const all = await Promise.all(Array.from({ length: 6 }, () => svc.request.get('/v1/question-types').set(org)));
      expect(all.map((r) => r.status)).to.deep.equal([200, 200, 200, 200, 200, 200]);
      expect(
        await svc.built.deps.models.QuestionTypeDefinition.countDocuments({ organizationId: 'org-race' }),
      ).to.equal(8);
    });

    it('scopes custom types to the actor, filters by q and status, and summary omits usageCount', async () => {
      await custom('alpha');
      await custom('beta', teacher2);
      const mine = (await svc.request.get('/v1/question-types').set(teacher).expect(200)).body.data;
      expect(mine.filter((t: { isSystem: boolean }) => !t.isSystem).map((t: { code: string }) => t.code)).to.deep.equal(
        ['ALPHA'],
      );
      const q = (await svc.request.get('/v1/question-types').set(teacher).query({ q: 'alp' }).expect(200)).body.data;
      expect(q.map((t: { code: string }) => t.code)).to.deep.equal(['ALPHA']);
      const summary = (await svc.request.get('/v1/question-types').set(teacher).query({ summary: '1' }).expect(200))
        .body.data;
      expect(summary).to.have.length(9);
      expect(summary[0]).to.not.have.property('usageCount');
    });

    it('summary lists only ACTIVE unless a status is asked for', async () => {
      const t = await custom('gone');
      await svc.request.patch(`/v1/question-types/${t.id}`).set(teacher).send({ status: 'ARCHIVED' }).expect(200);
      const active = (await svc.request.get('/v1/question-types').set(teacher).query({ summary: 'true' })).body.data;
      expect(active.map((x: { id: string }) => x.id)).to.not.include(t.id);
      const archived = (await svc.request.get('/v1/question-types').set(teacher).query({ status: 'ARCHIVED' })).body
        .data;
      expect(archived.map((x: { id: string }) => x.id)).to.deep.equal([t.id]);
    });

    it('treats a hostile regular expression, and a NUL, in q as text', async () => {
      const res = await svc.request.get('/v1/question-types').set(teacher).query({ q: '(a+)+$[' }).expect(200);
      expect(res.body.data).to.deep.equal([]);
      await custom('nul');
      await svc.request.patch(`/v1/question-types/org-a:ESSAY`).set(admin).send({ name: 'a\u0000b' }).expect(200);
      const nul = await svc.request.get('/v1/question-types').set(teacher).query({ q: 'a\u0000b' }).expect(200);
      expect(nul.body.data.map((t: { id: string }) => t.id)).to.deep.equal(['org-a:ESSAY']);
    });

    it('refuses allOrgs=1 except for the platform ADMIN (403) and an unknown status (400)', async () => {
      expect((await svc.request.get('/v1/question-types').set(teacher).query({ allOrgs: '1' })).status).to.equal(403);
      // Issue 20: an organization's ADMIN is ADMIN of that organization only.
      expect((await svc.request.get('/v1/question-types').set(admin).query({ allOrgs: '1' })).status).to.equal(403);
      await svc.request.get('/v1/question-types').set(as('p1', 'ADMIN')).query({ allOrgs: '1' }).expect(200);
      const bad = await svc.request.get('/v1/question-types').query({ status: 'DELETED' });
      expect(bad.status).to.equal(400);
      expect(bad.body.error.code).to.equal('VALIDATION_ERROR');
    });
  });

  describe('POST /v1/question-types', () => {
    it('creates an actor-owned custom type with the code uppercased and status ACTIVE by default', async () => {
      const t = await custom('my_type');
      expect(t).to.include({ code: 'MY_TYPE', baseType: 'ESSAY', isSystem: false, status: 'ACTIVE', usageCount: 0 });
      expect(t).to.include({ createdById: 't1', organizationId: 'org-a' });
    });

    it('refuses a duplicate code for the same actor (409) but lets another actor use it', async () => {
      await custom('dup');
      const again = await create({ code: 'DUP', name: 'x', baseType: 'ESSAY' });
      expect(again.status).to.equal(409);
      expect(again.body.error.code).to.equal('QUESTION_TYPE_CODE_TAKEN');
      await custom('dup', teacher2);
    });

    it('refuses a core code as a custom code', async () => {
      expect((await create({ code: 'essay', name: 'x', baseType: 'ESSAY' })).status).to.equal(409);
    });

    it('refuses wrong roles, missing organization, unknown baseType and malformed bodies without writing', async () => {
      const body = { code: 'X1', name: 'x', baseType: 'ESSAY' };
      expect((await create(body, as('s1', 'STUDENT', 'org-a'))).status).to.equal(403);
      expect((await svc.request.post('/v1/question-types').send(body)).status).to.equal(401);
      expect((await create(body, as('t1', 'TEACHER'))).status).to.equal(400);
      expect((await create({ ...body, baseType: 'POEM' })).status).to.equal(400);
      expect((await create({ ...body, extra: 1 })).status).to.equal(400);
      const malformed = await svc.request
        .post('/v1/question-types')
        .set(teacher)
        .set('Content-Type', 'application/json')
        .send('{"code":');
      expect(malformed.status).to.equal(400);
      expect(await svc.built.deps.models.QuestionTypeDefinition.countDocuments({ isSystem: false })).to.equal(0);
    });
  });

  describe('PATCH /v1/question-types/:id', () => {
    it('lets the owner change a custom type and hides it from other actors (404)', async () => {
      const t = await custom('own');
      const res = await svc.request
        .patch(`/v1/question-types/${t.id}`)
        .set(teacher)
        .send({ name: 'Renamed', code: 'own2', baseType: 'SHORT_ANSWER' })
        .expect(200);
      expect(res.body.data).to.include({ name: 'Renamed', code: 'OWN2', baseType: 'SHORT_ANSWER' });
      const other = await svc.request.patch(`/v1/question-types/${t.id}`).set(teacher2).send({ name: 'Nope' });
      expect(other.status).to.equal(404);
      expect(other.body.error.code).to.equal('QUESTION_TYPE_NOT_FOUND');
      const foreign = await svc.request
        .patch(`/v1/question-types/${t.id}`)
        .set(as('t1', 'TEACHER', 'org-b'))
        .send({ name: 'Nope' });
      expect(foreign.status).to.equal(404);
    });

    it('refuses a PATCH to a code the actor already uses or a core code (409), leaving the row as it was', async () => {
      await custom('taken');
      const t = await custom('free');
      for (const code of ['TAKEN', 'essay']) {
        const res = await svc.request.patch(`/v1/question-types/${t.id}`).set(teacher).send({ code });
        expect(res.status, code).to.equal(409);
        expect(res.body.error.code).to.equal('QUESTION_TYPE_CODE_TAKEN');
      }
      expect((await svc.built.deps.models.QuestionTypeDefinition.findById(t.id).lean())?.code).to.equal('FREE');
    });

    it('lets only ADMIN change a system type and ignores code, baseType and isSystem', async () => {
      await svc.request.get('/v1/question-types').set(teacher).expect(200);
      const id = 'org-a:ESSAY';
      expect(
        (await svc.request.patch(`/v1/question-types/${id}`).set(teacher).send({ name: 'Tự luận' })).status,
      ).to.equal(403);
      const res = await svc.request
        .patch(`/v1/question-types/${id}`)
        .set(admin)
        .send({ name: 'Tự luận', code: 'HACK', baseType: 'TRUE_FALSE', isSystem: false })
        .expect(200);
      expect(res.body.data).to.include({ id, name: 'Tự luận', code: 'ESSAY', baseType: 'ESSAY', isSystem: true });
    });
  });

  describe('DELETE /v1/question-types/:id', () => {
    it('removes an unused custom type, archives a used one and a system one', async () => {
      const unused = await custom('unused');
      const used = await custom('used');
      await svc.built.deps.models.QuestionTypeDefinition.updateOne({ _id: used.id }, { usageCount: 3 });
      const r1 = await svc.request.delete(`/v1/question-types/${unused.id}`).set(teacher).expect(200);
      expect(r1.body.data).to.deep.equal({ id: unused.id, deleted: true, archived: false });
      const r2 = await svc.request.delete(`/v1/question-types/${used.id}`).set(teacher).expect(200);
      expect(r2.body.data).to.deep.equal({ id: used.id, deleted: false, archived: true });
      const r3 = await svc.request.delete('/v1/question-types/org-a:ESSAY').set(admin).expect(200);
      expect(r3.body.data).to.include({ deleted: false, archived: true });
      const left = await svc.built.deps.models.QuestionTypeDefinition.find({}, { status: 1 }).lean();
      expect(left.find((r) => r._id === unused.id)).to.equal(undefined);
      expect(left.find((r) => r._id === used.id)?.status).to.equal('ARCHIVED');
      expect(left.find((r) => r._id === 'org-a:ESSAY')?.status).to.equal('ARCHIVED');
    });

    it('counts live questions that name a custom type: the list shows them and DELETE archives it', async () => {
      const used = await custom('in_use');
      await svc.request
        .post('/v1/questions')
        .set(teacher)
        .send({ content: 'Câu hỏi dùng dạng riêng', customTypeId: used.id })
        .expect(201);
      const list = await svc.request.get('/v1/question-types').set(teacher).expect(200);
      expect(list.body.data.find((t: { id: string }) => t.id === used.id)).to.include({ usageCount: 1 });
      const res = await svc.request.delete(`/v1/question-types/${used.id}`).set(teacher).expect(200);
      expect(res.body.data).to.deep.equal({ id: used.id, deleted: false, archived: true });
      const row = await svc.built.deps.models.QuestionTypeDefinition.findById(used.id).lean();
      expect(row?.status).to.equal('ARCHIVED');
    });
  });

  describe('bulk routes', () => {
    it('bulk-status deduplicates ids and applies single-item rules per id', async () => {
      const a = await custom('a1');
      const theirs = await custom('b1', teacher2);
      const res = await svc.request
        .patch('/v1/question-types/bulk-status')
        .set(teacher)
        .send({ ids: [a.id, a.id, theirs.id, 'org-a:ESSAY', 'nope'], status: 'ARCHIVED' })
        .expect(200);
      expect(res.body.data.requested).to.equal(4);
      expect(res.body.data.updated).to.equal(1);
      expect(res.body.data.failed).to.deep.equal([
        { id: theirs.id, code: 'QUESTION_TYPE_NOT_FOUND' },
        { id: 'org-a:ESSAY', code: 'FORBIDDEN' },
        { id: 'nope', code: 'QUESTION_TYPE_NOT_FOUND' },
      ]);
      const rows = await svc.built.deps.models.QuestionTypeDefinition.find({ _id: { $in: [a.id, theirs.id] } }).lean();
      expect(Object.fromEntries(rows.map((r) => [r._id, r.status]))).to.deep.equal({
        [a.id]: 'ARCHIVED',
        [theirs.id]: 'ACTIVE',
      });
    });

    it('bulk-delete removes unused, archives used, and refuses empty, over-limit and malformed lists', async () => {
      const a = await custom('d1');
      const b = await custom('d2');
      await svc.built.deps.models.QuestionTypeDefinition.updateOne({ _id: b.id }, { usageCount: 1 });
      const res = await svc.request
        .post('/v1/question-types/bulk-delete')
        .set(teacher)
        .send({ ids: [a.id, b.id, a.id] })
        .expect(200);
      expect(res.body.data).to.deep.equal({ requested: 2, deleted: 1, archived: 1, failed: [] });
      const post = (body: object) => svc.request.post('/v1/question-types/bulk-delete').set(teacher).send(body);
      expect((await post({ ids: [] })).status).to.equal(400);
      expect((await post({ ids: Array.from({ length: 101 }, (_, i) => `id${i}`) })).status).to.equal(400);
      expect((await post({ ids: 'x' })).status).to.equal(400);
      const status = await svc.request
        .patch('/v1/question-types/bulk-status')
        .set(teacher)
        .send({ ids: [a.id], status: 'GONE' });
      expect(status.status).to.equal(400);
    });
  });
});
