import { expect } from 'chai';
import { AppError, STATUS, statusFor, toAppError } from '../src/core/index.js';
import { isDuplicateKey } from '../src/data/index.js';
import { CONTRACT_ERRORS, CONTRACT_NON_HTTP_CODES } from './support/contract-errors.js';

describe('errors (pure)', () => {
  it('statusFor: reads the table, maps *_NOT_FOUND to 404, honours a contract-fixed status', () => {
    expect(statusFor(new AppError('VALIDATION_ERROR', 'x'))).to.equal(400);
    expect(statusFor(new AppError('RATE_LIMITED', 'x'))).to.equal(429);
    expect(statusFor(new AppError('QUESTION_NOT_FOUND', 'x'))).to.equal(404);
    expect(statusFor(new AppError('ATTEMPT_LOCKED', 'x', { status: 409 }))).to.equal(409);
    expect(statusFor(new AppError('SOMETHING_NEW', 'x'))).to.equal(500);
  });

  it('toAppError: maps body-parser failures to client errors, never 500', () => {
    const parse = toAppError(Object.assign(new Error('Unexpected token'), { type: 'entity.parse.failed' }));
    expect([parse.code, statusFor(parse)]).to.deep.equal(['VALIDATION_ERROR', 400]);
    const big = toAppError(Object.assign(new Error('too large'), { type: 'entity.too.large' }));
    expect([big.code, statusFor(big)]).to.deep.equal(['PAYLOAD_TOO_LARGE', 413]);
    const charset = toAppError(Object.assign(new Error('x'), { type: 'charset.unsupported' }));
    expect(statusFor(charset)).to.equal(415);
  });

  it('toAppError: hides unknown errors behind INTERNAL_ERROR and MongoDB outages behind 503', () => {
    const internal = toAppError(new Error('secret internals'));
    expect([internal.code, internal.message]).to.deep.equal(['INTERNAL_ERROR', 'Internal error']);
    const mongo = toAppError(Object.assign(new Error('x'), { name: 'MongoServerSelectionError' }));
    expect(statusFor(mongo)).to.equal(503);
  });

  it('STATUS: is frozen data', () => {
    expect(Object.isFrozen(STATUS)).to.equal(true);
  });

  it('every contract error code maps to the status the contract implies', () => {
    const wrong = CONTRACT_ERRORS.map((e) => ({
      code: e.code,
      want: e.status,
      got: statusFor(new AppError(e.code, 'x')),
    })).filter((r) => r.got !== r.want);
    expect(wrong).to.deep.equal([]);
  });

  it('a code the contracts fix wins over the suffix rule (AI_PREVIEW_CONFLICT is 400, not 409)', () => {
    expect(STATUS.AI_PREVIEW_CONFLICT).to.equal(400);
    expect(statusFor(new AppError('OTHER_CONFLICT', 'x'))).to.equal(409);
  });

  it('every non-_NOT_FOUND contract code is in the table, not left to a rule or the 500 default', () => {
    const missing = CONTRACT_ERRORS.map((e) => e.code).filter(
      (c) => !c.endsWith('_NOT_FOUND') && STATUS[c] === undefined,
    );
    expect(missing).to.deep.equal([]);
  });

  it('job failure and warning codes stay out of the HTTP table', () => {
    expect(CONTRACT_NON_HTTP_CODES.filter((c) => STATUS[c] !== undefined)).to.deep.equal([]);
  });
});

describe('isDuplicateKey (pure)', () => {
  const e11000 = (message: string, extra: object = {}) => Object.assign(new Error(message), { code: 11000, ...extra });

  it('names the index from keyPattern when the server sends it', () => {
    expect(isDuplicateKey(e11000('dup', { keyPattern: { email: 1 } }), 'email')).to.equal(true);
    expect(isDuplicateKey(e11000('dup', { keyPattern: { phone: 1 } }), 'email')).to.equal(false);
  });

  it('otherwise reads the index name, never the duplicated value', () => {
    const phoneDup = e11000(
      'E11000 duplicate key error collection: edu_auth.users index: phone_1 dup key: { phone: "email" }',
    );
    expect(isDuplicateKey(phoneDup, 'phone')).to.equal(true);
    expect(isDuplicateKey(phoneDup, 'email')).to.equal(false);
    expect(isDuplicateKey(e11000('E11000 ... index: userId_1_organizationId_1 dup key: {}'), 'userId')).to.equal(true);
  });

  it('is false for other errors', () => {
    expect(isDuplicateKey(new Error('E11000 in a message only'))).to.equal(false);
  });
});
