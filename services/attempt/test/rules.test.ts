import { expect } from 'chai';
import { nextVersion } from '../src/domain/answers.js';
import type { AccessInput, ExamSnapshot } from '../src/domain/start-input.js';
import { attemptLimitOf, checkLinkLimit, deadlineOf } from '../src/domain/start-rules.js';
import type { AnswerRow } from '../src/store/models.js';

const stored = (serverVersion: number) => ({ serverVersion }) as AnswerRow;
const exam = (over: Partial<ExamSnapshot>) =>
  ({ durationMinutes: null, closeTime: null, maxAttempts: null, ...over }) as ExamSnapshot;
const access = (over: Partial<AccessInput>) =>
  ({ assigned: false, attemptLimit: null, accessLink: null, ...over }) as AccessInput;

describe('attempt: pure rules', () => {
  it('versions: 0 always writes, a positive clientVersion below the stored one is stale, the new one is above both', () => {
    expect(nextVersion(stored(0), 0)).to.equal(1);
    expect(nextVersion(stored(7), 0)).to.equal(8);
    expect(nextVersion(stored(7), 6)).to.equal('stale');
    expect(nextVersion(stored(7), 7)).to.equal(8);
    expect(nextVersion(stored(2), 40)).to.equal(40);
  });

  it('deadline: start + duration, capped at close, else close, else none', () => {
    const start = new Date('2026-01-01T08:00:00Z');
    const close = new Date('2026-01-01T08:30:00Z');
    expect(deadlineOf(exam({ durationMinutes: 45 }), start)?.toISOString()).to.equal('2026-01-01T08:45:00.000Z');
    expect(deadlineOf(exam({ durationMinutes: 45, closeTime: close }), start)).to.equal(close);
    expect(deadlineOf(exam({ durationMinutes: 15, closeTime: close }), start)?.toISOString()).to.equal(
      '2026-01-01T08:15:00.000Z',
    );
    expect(deadlineOf(exam({ closeTime: close }), start)).to.equal(close);
    expect(deadlineOf(exam({}), start)).to.equal(null);
  });

  it('attempt limit: access.attemptLimit over exam.maxAttempts; 0 and null are none', () => {
    expect(attemptLimitOf(exam({ maxAttempts: 2 }), access({}))).to.equal(2);
    expect(attemptLimitOf(exam({ maxAttempts: 2 }), access({ attemptLimit: 5 }))).to.equal(5);
    expect(attemptLimitOf(exam({ maxAttempts: 0 }), access({}))).to.equal(null);
    expect(attemptLimitOf(exam({}), access({}))).to.equal(null);
  });

  it('link limit: counts distinct guests, lets a returning guest and assigned students through', () => {
    const link = access({ accessLink: { id: 'l', active: true, maxStudents: 2 } });
    expect(() => checkLinkLimit(link, 's3', ['s1', 's2'])).to.throw('Access link student limit reached');
    expect(() => checkLinkLimit(link, 's1', ['s1', 's2'])).to.not.throw();
    expect(() => checkLinkLimit(link, 's2', ['s1'])).to.not.throw();
    expect(() => checkLinkLimit({ ...link, assigned: true }, 's3', ['s1', 's2'])).to.not.throw();
  });
});
