import { expect } from 'chai';
import { importGrantKey, signImportGrant, verifyImportGrant, type ImportGrant } from '../src/core/index.js';

const NOW = 1_800_000_000;
const grant: ImportGrant = { jobId: 'job-1', organizationId: 'school-a', userId: 'teacher-a', exp: NOW + 60 };
const key = importGrantKey('internal-token-of-the-platform');

describe('kit grant: an import job ingest grant', () => {
  it('verifies what it signed, with the claims it signed', () => {
    expect(verifyImportGrant(key, signImportGrant(key, grant), NOW)).to.deep.equal({ ok: true, grant });
  });

  it('refuses another key (the workers token is no signing key), an expired grant and a malformed one', () => {
    const token = signImportGrant(key, grant);
    const other = importGrantKey('worker-token-of-the-workers');
    expect(verifyImportGrant(other, token, NOW)).to.deep.equal({ ok: false, reason: 'signature' });
    expect(verifyImportGrant(key, token, NOW + 60)).to.deep.equal({ ok: false, reason: 'expired' });
    for (const bad of [undefined, '', 'abc', `${token}.x`, '.sig', 'x'.repeat(5000)]) {
      expect(verifyImportGrant(key, bad, NOW), String(bad).slice(0, 20)).to.deep.equal({
        ok: false,
        reason: 'malformed',
      });
    }
  });

  it('refuses a payload changed under its signature (another school, another author)', () => {
    const [, signature] = signImportGrant(key, grant).split('.');
    for (const changed of [{ organizationId: 'school-b' }, { userId: 'teacher-b' }, { exp: NOW + 999_999 }]) {
      const payload = Buffer.from(JSON.stringify({ ...grant, ...changed })).toString('base64url');
      expect(verifyImportGrant(key, `${payload}.${signature}`, NOW)).to.deep.equal({ ok: false, reason: 'signature' });
    }
  });

  it('a signed payload without every claim is malformed', () => {
    const { userId: _dropped, ...partial } = grant;
    const token = signImportGrant(key, partial as ImportGrant);
    expect(verifyImportGrant(key, token, NOW)).to.deep.equal({ ok: false, reason: 'malformed' });
  });
});
