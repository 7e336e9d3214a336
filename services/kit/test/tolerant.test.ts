import { expect } from 'chai';
import Joi from 'joi';
import { applySpellings, tolerant, trimmedString } from '../src/http/index.js';

describe('kit tolerant reader', () => {
  const spellings = [
    { path: 'exam.id', alias: 'examId' },
    { path: 'classroom.id', alias: 'classroomId' },
    { path: 'studentId', alias: 'student.id' },
  ];

  it('copies an alias to its path, creating the object it belongs to', () => {
    const { value, conflicts } = applySpellings({ examId: 'e1', student: { id: 's1' } }, spellings);
    expect(conflicts).to.deep.equal([]);
    expect(value).to.deep.include({ exam: { id: 'e1' }, studentId: 's1' });
  });

  it('accepts both spellings when they agree, and names the alias when they do not', () => {
    expect(applySpellings({ examId: 'e1', exam: { id: 'e1' } }, spellings).conflicts).to.deep.equal([]);
    const { conflicts } = applySpellings(
      { examId: 'e2', exam: { id: 'e1' }, studentId: 's', student: { id: 't' } },
      spellings,
    );
    expect(conflicts.map((c) => c.path)).to.deep.equal(['examId', 'student.id']);
  });

  it('treats a null object as agreeing only with a null alias, and never builds an object from null', () => {
    expect(applySpellings({ classroom: null, classroomId: 'c1' }, spellings).conflicts).to.have.length(1);
    expect(applySpellings({ classroom: null, classroomId: null }, spellings).conflicts).to.deep.equal([]);
    expect(applySpellings({ classroomId: null }, spellings).value).to.deep.equal({ classroomId: null });
  });

  it('refuses a nested spelling whose container is not an object or lacks the member, as the document types it', () => {
    const refused = (body: object) => applySpellings(body, spellings).conflicts.map((c) => c.message);
    expect(refused({ student: [null, null], studentId: 's1' })).to.deep.equal(['student must be an object']);
    expect(refused({ student: 's1' })).to.deep.equal(['student must be an object']);
    expect(refused({ student: null })).to.deep.equal(['student must be an object']);
    expect(refused({ student: {}, studentId: 's1' })).to.deep.equal(['student.id is required when student is given']);
    expect(refused({ student: { id: 's1' } })).to.deep.equal([]);
  });

  it('leaves the body it was given untouched', () => {
    const body = { examId: 'e1' };
    applySpellings(body, spellings);
    expect(body).to.deep.equal({ examId: 'e1' });
  });

  it('drops unknown members at every depth but keeps free-form objects and checks known types', () => {
    const schema = tolerant(
      Joi.object({ a: Joi.string(), o: Joi.object({ x: Joi.number().strict() }), p: Joi.object().unknown(true) }),
    );
    const ok = schema.validate({ a: 'q', z: 1, o: { x: 1, w: 2 }, p: { k: 1 } });
    expect(ok.value).to.deep.equal({ a: 'q', o: { x: 1 }, p: { k: 1 } });
    expect(schema.validate({ a: 1, z: 1 }).error?.details.map((d) => d.path.join('.'))).to.deep.equal(['a']);
  });
});

describe('kit trimmedString', () => {
  const name = trimmedString(2, 120);

  it('applies the bounds after trimming and returns the trimmed value', () => {
    const full = 'A'.repeat(120);
    expect(name.validate(`  ${full}  `).value).to.equal(full);
    expect(name.validate(`${full}A`).error?.details[0]?.type).to.equal('string.max');
    expect(name.validate('  a  ').error?.details[0]?.type).to.equal('string.min');
  });

  it('counts code points, not UTF-16 units', () => {
    expect(name.validate('😀'.repeat(120)).error).to.equal(undefined);
  });
});
