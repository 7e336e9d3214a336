import { expect } from 'chai';
import { startTestService, type TestService } from '../../kit/test/support/harness.js';
import type { QuestionBankConfig } from '../src/config.js';
import { questionBankService, type BuiltQuestionBank } from '../src/service.js';

const as = (user: string, role: string, org?: string) => ({
  'X-User-Id': user,
  'X-User-Role': role,
  ...(org ? { 'X-Organization-Id': org } : {}),
});
const teacher = as('t1', 'TEACHER', 'org-a');
const teacher2 = as('t2', 'TEACHER', 'org-a');
const admin = as('a1', 'ADMIN', 'org-a');
const foreign = as('t9', 'TEACHER', 'org-b');

describe('question folders and groups', () => {
  let svc: TestService<QuestionBankConfig, BuiltQuestionBank>;
  before(async () => (svc = await startTestService(questionBankService, { file: import.meta.url })));
  after(() => svc.close());
  beforeEach(() => svc.clearCollections());

  // A question row as the questions core stores it; only the fields the catalog reads matter here.
  const questionIn = (over: Record<string, unknown>) =>
    svc.db.conn.collection('questions').insertOne({
      _id: `q-${Math.random().toString(36).slice(2)}`,
      organizationId: 'org-a',
      removedAt: null,
      ...over,
    } as never);

  const folder = async (body: object, headers = teacher) =>
    (await svc.request.post('/v1/question-folders').set(headers).send(body).expect(201)).body.data;
  const patch = (id: string, body: object, headers = teacher) =>
    svc.request.patch(`/v1/question-folders/${id}`).set(headers).send(body);

  describe('POST and GET /v1/question-folders', () => {
    it('creates a PRIVATE folder by default and lists it to its owner only', async () => {
      const f = await folder({ name: 'Đại số' });
      expect(f).to.include({ name: 'Đại số', parentId: null, visibility: 'PRIVATE', organizationId: 'org-a' });
      await folder({ name: 'Shared', visibility: 'ORGANIZATION' }, teacher2);
      const mine = (await svc.request.get('/v1/question-folders').set(teacher).expect(200)).body.data;
      expect(mine.items.map((x: { name: string }) => x.name)).to.deep.equal(['Shared', 'Đại số']);
      expect(mine.meta).to.deep.equal({ page: 1, limit: 20, total: 2, totalPages: 1 });
      const theirs = (await svc.request.get('/v1/question-folders').set(teacher2).expect(200)).body.data;
      expect(theirs.items.map((x: { name: string }) => x.name)).to.deep.equal(['Shared']);
      const other = (await svc.request.get('/v1/question-folders').set(foreign).expect(200)).body.data;
      expect(other.items).to.deep.equal([]);
    });

    it('refuses a parent from another organization or unknown (404), an unknown visibility (400) and a student (403)', async () => {
      const theirs = await folder({ name: 'B' }, foreign);
      const res = await svc.request.post('/v1/question-folders').set(teacher).send({ name: 'x', parentId: theirs.id });
      expect(res.status).to.equal(404);
      expect(res.body.error.code).to.equal('FOLDER_PARENT_NOT_FOUND');
      expect(res.body.error.details[0].path).to.equal('parentId');
      expect(
        (await svc.request.post('/v1/question-folders').set(teacher).send({ name: 'x', parentId: 'nope' })).status,
      ).to.equal(404);
      expect(
        (await svc.request.post('/v1/question-folders').set(teacher).send({ name: 'x', visibility: 'WORLD' })).status,
      ).to.equal(400);
      expect(
        (
          await svc.request
            .post('/v1/question-folders')
            .set(as('s1', 'STUDENT', 'org-a'))
            .send({ name: 'x' })
        ).status,
      ).to.equal(403);
      expect(await svc.built.deps.models.QuestionFolder.countDocuments({ organizationId: 'org-a' })).to.equal(0);
    });

    it('refuses allOrgs=1 except for the platform ADMIN (no X-Organization-Id)', async () => {
      expect((await svc.request.get('/v1/question-folders').set(teacher).query({ allOrgs: '1' })).status).to.equal(403);
      // Issue 20: an organization's ADMIN is ADMIN of that organization only.
      expect((await svc.request.get('/v1/question-folders').set(admin).query({ allOrgs: '1' })).status).to.equal(403);
      await svc.request.get('/v1/question-folders').set(as('p1', 'ADMIN')).query({ allOrgs: '1' }).expect(200);
    });
  });

  describe('PATCH /v1/question-folders/:id', () => {
    it('moves a folder, clears the parent with an empty parentId, and refuses cycles with 409', async () => {
      const root = await folder({ name: 'root' });
      const child = await folder({ name: 'child', parentId: root.id });
      const grandchild = await folder({ name: 'gc', parentId: child.id });
      const cycle = await patch(root.id, { parentId: grandchild.id });
      expect(cycle.status).to.equal(409);
      expect(cycle.body.error.code).to.equal('FOLDER_PARENT_CONFLICT');
      expect((await patch(root.id, { parentId: root.id })).status).to.equal(409);
      expect((await svc.built.deps.models.QuestionFolder.findById(root.id).lean())?.parentId).to.equal(null);
      const cleared = await patch(child.id, { parentId: '' }).expect(200);
      expect(cleared.body.data.parentId).to.equal(null);
      const moved = await patch(root.id, { parentId: grandchild.id, name: 'moved' }).expect(200);
      expect(moved.body.data).to.include({ parentId: grandchild.id, name: 'moved' });
    });

    it('hides a foreign or private folder (404) and refuses another teacher on a visible one (403)', async () => {
      const priv = await folder({ name: 'p' });
      const shared = await folder({ name: 's', visibility: 'ORGANIZATION' });
      expect((await patch(priv.id, { name: 'x' }, foreign)).status).to.equal(404);
      expect((await patch(priv.id, { name: 'x' }, teacher2)).status).to.equal(404);
      expect((await patch(shared.id, { name: 'x' }, teacher2)).status).to.equal(403);
      await patch(shared.id, { name: 'by admin' }, admin).expect(200);
    });
  });

  describe('DELETE /v1/question-folders/:id', () => {
    it('deletes only empty folders: a child folder or a live question blocks it (409)', async () => {
      const parent = await folder({ name: 'parent' });
      const child = await folder({ name: 'child', parentId: parent.id });
      const blocked = await svc.request.delete(`/v1/question-folders/${parent.id}`).set(teacher);
      expect(blocked.status).to.equal(409);
      expect(blocked.body.error.code).to.equal('FOLDER_NOT_EMPTY');
      await questionIn({ folderId: child.id });
      expect((await svc.request.delete(`/v1/question-folders/${child.id}`).set(teacher)).status).to.equal(409);
      await svc.db.conn.collection('questions').updateMany({}, { $set: { removedAt: new Date() } });
      const res = await svc.request.delete(`/v1/question-folders/${child.id}`).set(teacher).expect(200);
      expect(res.body.data).to.deep.equal({ id: child.id, deleted: true });
      await svc.request.delete(`/v1/question-folders/${parent.id}`).set(teacher).expect(200);
      expect(await svc.built.deps.models.QuestionFolder.countDocuments()).to.equal(0);
    });
  });

  describe('question groups', () => {
    const group = async (body: object, headers = teacher) =>
      (await svc.request.post('/v1/question-groups').set(headers).send(body).expect(201)).body.data;

    it('creates a group and lists it with _count.questions from live questions', async () => {
      const g = await group({ title: 'Đoạn văn 1', contentText: 'Phương trình bậc hai', contentJson: { type: 'doc' } });
      expect(g).to.include({ title: 'Đoạn văn 1', organizationId: 'org-a', createdById: 't1' });
      expect(g).to.not.have.property('searchText');
      await questionIn({ groupId: g.id });
      await questionIn({ groupId: g.id });
      await questionIn({ groupId: g.id, removedAt: new Date() });
      const res = await svc.request.get('/v1/question-groups').set(teacher).expect(200);
      expect(res.body.data.items).to.have.length(1);
      expect(res.body.data.items[0]._count).to.deep.equal({ questions: 2 });
    });

    it('stores free-form JSON whatever its keys (NUL, a leading $, dots) and returns it unchanged', async () => {
      const contentJson = { 'a\u0000b': { $where: 'x', 'c.d': [1, null, { e: true }] } };
      const g = await group({ title: 't', contentText: 'c', contentJson, mediaJson: [{ $gt: 1 }] });
      expect(g.contentJson).to.deep.equal(contentJson);
      const listed = (await svc.request.get('/v1/question-groups').set(teacher).expect(200)).body.data.items[0];
      expect(listed.contentJson).to.deep.equal(contentJson);
      expect(listed.mediaJson).to.deep.equal([{ $gt: 1 }]);
      expect(listed.sourceMetadataJson).to.equal(null);
    });

    it('matches q over title and content text, ignoring case and diacritics, and treats a regex as text', async () => {
      await group({ title: 'Hàm số', contentText: 'Phương trình bậc hai' });
      await group({ title: 'Hình học', contentText: 'Tam giác' });
      const find = async (q: string) =>
        (await svc.request.get('/v1/question-groups').set(teacher).query({ q }).expect(200)).body.data.items.map(
          (x: { title: string }) => x.title,
        );
      expect(await find('phuong trinh')).to.deep.equal(['Hàm số']);
      expect(await find('HINH')).to.deep.equal(['Hình học']);
      expect(await find('.*')).to.deep.equal([]);
    });

    it('scopes groups to the organization and owner, and refuses bad bodies and roles', async () => {
      await group({ title: 'mine', contentText: 'x' });
      expect((await svc.request.get('/v1/question-groups').set(foreign).expect(200)).body.data.items).to.deep.equal([]);
      expect((await svc.request.get('/v1/question-groups').set(teacher2).expect(200)).body.data.items).to.deep.equal(
        [],
      );
      expect((await svc.request.get('/v1/question-groups').set(admin).expect(200)).body.data.items).to.have.length(1);
      const post = (body: object, headers = teacher) => svc.request.post('/v1/question-groups').set(headers).send(body);
      expect((await post({ title: 'x' })).status).to.equal(400);
      expect((await post({ title: 'x', contentText: 'y', contentJson: 'str' })).status).to.equal(400);
      expect((await post({ title: 'x', contentText: 'y' }, as('p1', 'PARENT', 'org-a'))).status).to.equal(403);
      expect((await svc.request.get('/v1/question-groups').set(teacher).query({ allOrgs: '1' })).status).to.equal(403);
    });
  });
});
