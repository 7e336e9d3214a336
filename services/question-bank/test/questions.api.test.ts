import { expect } from 'chai';
import { admin, choiceBody, createAs, headers, startQuestionBank, teacher, type TestQuestionBank } from './support.js';

describe('question bank: questions', () => {
  let svc: TestQuestionBank;
  before(async () => {
    svc = await startQuestionBank(import.meta.url);
  });
  after(() => svc.close());
  beforeEach(() => svc.clearCollections());

  describe('POST /v1/questions', () => {
    it('creates with the contract defaults, an initial version and currentVersionId', async () => {
      const res = await svc.request.post('/v1/questions').set(headers(teacher())).send({ content: 'Câu hỏi' });
      expect(res.status).to.equal(201);
      const q = res.body.data;
      expect(q).to.include({
        type: 'SINGLE_CHOICE',
        subjectId: 'math',
        gradeLevel: 12,
        difficulty: 'MEDIUM',
        sourceType: 'MANUAL',
        visibility: 'PRIVATE',
        status: 'DRAFT',
        organizationId: 'org-a',
        createdById: 't1',
      });
      expect(q.currentVersionId).to.be.a('string');
      expect(q.currentVersion).to.include({ id: q.currentVersionId, versionNumber: 1, content: 'Câu hỏi' });
      expect(q.contentJson).to.deep.equal({
        type: 'doc',
        content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Câu hỏi' }] }],
      });
      expect(q).to.not.have.property('searchTokens');
    });

    it('keeps options in order with generated ids and labels, and tags deduplicated', async () => {
      const q = await createAs(svc, teacher(), choiceBody({ tags: ['Đại số', ' Đại số ', 'Lớp 12'] }));
      const options = q.options as Array<Record<string, unknown>>;
      expect(options.map((o) => [o.label, o.content, o.isCorrect])).to.deep.equal([
        ['A', 'x = 1', true],
        ['B', 'x = 2', false],
      ]);
      expect(options[0]!.id).to.be.a('string');
      expect(q.tags).to.deep.equal(['Đại số', 'Lớp 12']);
    });

    it('refuses a PUBLISHED choice question without a correct option with 409 QUESTION_PUBLISH_CONFLICT', async () => {
      const res = await svc.request
        .post('/v1/questions')
        .set(headers(teacher()))
        .send(choiceBody({ status: 'PUBLISHED', options: [{ content: 'a' }, { content: 'b' }] }));
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('QUESTION_PUBLISH_CONFLICT');
      expect(await svc.db.conn.collection('questions').countDocuments()).to.equal(0);
      expect(await svc.db.conn.collection('question_versions').countDocuments()).to.equal(0);
    });

    it('accepts a PUBLISHED TRUE_FALSE_GROUP with sub-items A to D and refuses one missing D', async () => {
      const items = ['A', 'B', 'C', 'D'].map((label, i) => ({
        label,
        content: `Ý ${label}`,
        correctBoolean: i % 2 === 0,
      }));
      const good = { content: 'Xét tính đúng sai', type: 'TRUE_FALSE_GROUP', status: 'PUBLISHED', subItemsJson: items };
      const res = await svc.request.post('/v1/questions').set(headers(teacher())).send(good);
      expect(res.status).to.equal(201);
      expect(res.body.data.subItems).to.have.length(4);
      const bad = { ...good, subItemsJson: items.slice(0, 3) };
      expect((await svc.request.post('/v1/questions').set(headers(teacher())).send(bad)).status).to.equal(409);
    });

    it('needs accepted answers for a PUBLISHED short answer', async () => {
      const base = { content: 'Tính 2+2', type: 'SHORT_NUMERIC_ANSWER', status: 'PUBLISHED' };
      expect((await svc.request.post('/v1/questions').set(headers(teacher())).send(base)).status).to.equal(409);
      const res = await svc.request
        .post('/v1/questions')
        .set(headers(teacher()))
        .send({ ...base, answerKeysJson: { acceptedAnswers: ['4'] } });
      expect(res.status).to.equal(201);
      expect(res.body.data.answerKeys).to.deep.equal({ acceptedAnswers: ['4'] });
    });

    it('refuses bad input with 400 and writes nothing', async () => {
      const bad: unknown[] = [
        {},
        { content: '' },
        { content: 'x', type: 'NOT_A_TYPE' },
        { content: 'x', status: 'DELETED' },
        { content: 'x', gradeLevel: 13 },
        { content: 'x', difficulty: 'IMPOSSIBLE' },
        { content: 'x', answerKeys: { unknown: 1 } },
        { content: 'x', unknownField: 1 },
        { content: 'x', options: 'A' },
      ];
      for (const body of bad) {
        const res = await svc.request
          .post('/v1/questions')
          .set(headers(teacher()))
          .send(body as object);
        expect(res.status, JSON.stringify(body)).to.equal(400);
      }
      const malformed = await svc.request
        .post('/v1/questions')
        .set(headers(teacher()))
        .set('content-type', 'application/json')
        .send('{"content":');
      expect(malformed.status).to.equal(400);
      expect(await svc.db.conn.collection('questions').countDocuments()).to.equal(0);
    });

    it('counts length limits in characters: 20 emoji make a valid label, 21 do not', async () => {
      const body = (n: number) => choiceBody({ options: [{ label: '😀'.repeat(n), content: 'a' }] });
      expect((await svc.request.post('/v1/questions').set(headers(teacher())).send(body(20))).status).to.equal(201);
      expect((await svc.request.post('/v1/questions').set(headers(teacher())).send(body(21))).status).to.equal(400);
    });

    it('allows writes only to ADMIN and TEACHER with an organization', async () => {
      const body = choiceBody();
      expect((await svc.request.post('/v1/questions').send(body)).status).to.equal(401);
      const student = { userId: 's1', role: 'STUDENT', organizationId: 'org-a' };
      expect((await svc.request.post('/v1/questions').set(headers(student)).send(body)).status).to.equal(403);
      const noOrg = { userId: 't1', role: 'TEACHER' };
      expect((await svc.request.post('/v1/questions').set(headers(noOrg)).send(body)).status).to.equal(400);
      expect((await svc.request.post('/v1/questions').set(headers(admin())).send(body)).status).to.equal(201);
    });
  });
});
