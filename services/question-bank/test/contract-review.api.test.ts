// Regression tests for contract rules found uncovered by the black-box conformance review.
import { expect } from 'chai';
import { headers, startQuestionBank, teacher, type TestQuestionBank } from './support.js';

interface TypeView {
  id: string;
  code: string;
  baseType: string;
  isSystem: boolean;
}

describe('contract review', () => {
  let svc: TestQuestionBank;
  before(async () => (svc = await startQuestionBank(import.meta.url)));
  after(() => svc.close());
  beforeEach(() => svc.clearCollections());

  const createType = (body: object, who = teacher()) =>
    svc.request.post('/v1/question-types').set(headers(who)).send(body);

  describe('legacy preset codes normalize to core types', () => {
    const cases: Array<[string, string]> = [
      ['TRAC_NGHIEM', 'SINGLE_CHOICE'],
      ['MCQ_MULTI', 'MULTIPLE_CHOICE'],
      ['DUNG_SAI', 'TRUE_FALSE_GROUP'],
      ['TU_LUAN', 'ESSAY'],
      ['ESSAY', 'ESSAY'],
    ];
    for (const [preset, core] of cases) {
      it(`stores baseType ${preset} as ${core} on create`, async () => {
        const res = await createType({ code: `c_${preset}`, name: 'Preset', baseType: preset }).expect(201);
        expect(res.body.data.baseType).to.equal(core);
      });
    }

    it('normalizes a preset baseType on PATCH of a custom definition', async () => {
      const created = await createType({ code: 'mine', name: 'Mine', baseType: 'ESSAY' }).expect(201);
      const res = await svc.request
        .patch(`/v1/question-types/${created.body.data.id}`)
        .set(headers(teacher()))
        .send({ baseType: 'PART_III' })
        .expect(200);
      expect(res.body.data.baseType).to.equal('SHORT_NUMERIC_ANSWER');
    });

    it('refuses a baseType that is neither a core type nor a listed preset code', async () => {
      const res = await createType({ code: 'odd', name: 'Odd', baseType: 'NOT_A_TYPE' }).expect(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      const lower = await createType({ code: 'odd', name: 'Odd', baseType: 'trac_nghiem' }).expect(400);
      expect(lower.body.error.code).to.equal('VALIDATION_ERROR');
    });

    it('never lists a preset code as a system definition', async () => {
      await createType({ code: 'TRAC_NGHIEM', name: 'Custom', baseType: 'MCQ' }).expect(201);
      const res = await svc.request.get('/v1/question-types').set(headers(teacher())).expect(200);
      const types = res.body.data as TypeView[];
      const systemCodes = types.filter((t) => t.isSystem).map((t) => t.code);
      expect(systemCodes).to.have.lengthOf(8).and.not.include('TRAC_NGHIEM');
      const custom = types.find((t) => t.code === 'TRAC_NGHIEM');
      expect(custom).to.include({ isSystem: false, baseType: 'SINGLE_CHOICE' });
    });
  });

  describe('requests the OpenAPI document allows or refuses are answered alike (found by fuzzing)', () => {
    it('imports parser output whose warning has an empty code', async () => {
      const body = {
        document_id: 'doc-review',
        latency_ms: 3,
        questions: [{ id: 'q1', content: 'Câu 1', type: 'ESSAY' }],
        warnings: [{ code: '', message: '' }],
        stats: {},
      };
      const res = await svc.request
        .post('/v1/questions/import-docx-output')
        .set(headers(teacher()))
        .send(body)
        .expect(201);
      expect(res.body.data.questionIds).to.have.lengthOf(1);
    });

    it('refuses a blank curriculum-node link on a taxonomy ref, as the document states', async () => {
      const item = { id: 'node-1', kind: 'CURRICULUM_NODE', code: 'N1', name: 'Node', subjectId: ' ' };
      const res = await svc.request
        .put('/v1/taxonomy/refs')
        .set(headers(teacher()))
        .send({ items: [item] })
        .expect(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      const doc = await svc.request.get('/v1/openapi.json').expect(200);
      const link = doc.body.components.schemas.TaxonomyRefInput.properties.subjectId;
      // The document refuses it too: its pattern (1..200 after trimming) matches no blank value.
      expect(link).to.include({ minLength: 1 });
      expect(new RegExp(link.pattern).test(' ')).to.equal(false);
      expect(new RegExp(link.pattern).test(` ${'N'.repeat(200)} `)).to.equal(true);
    });
  });
});
