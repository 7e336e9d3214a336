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
});
