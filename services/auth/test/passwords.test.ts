import { expect } from 'chai';
import bcrypt from 'bcrypt';
import { bcryptCost, bcryptInput, fitsBcrypt, normalizePassword, passwordBytes } from '../src/domain/passwords.js';

describe('passwords (pure)', () => {
  it('normalizePassword: NFD and NFC spellings of a Vietnamese password become the same string', () => {
    const nfc = 'Mật khẩu'.normalize('NFC');
    const nfd = 'Mật khẩu'.normalize('NFD');
    expect(nfd).to.not.equal(nfc);
    expect(normalizePassword(nfd)).to.equal(normalizePassword(nfc));
  });

  it('passwordBytes: counts UTF-8 bytes, not characters (ậ is 3 bytes)', () => {
    expect(passwordBytes('ậ')).to.equal(3);
    expect(passwordBytes('abc')).to.equal(3);
  });

  it('fitsBcrypt: 72 bytes fit, 73 do not; 24 three-byte letters are exactly 72', () => {
    expect(fitsBcrypt('a'.repeat(72))).to.equal(true);
    expect(fitsBcrypt('a'.repeat(73))).to.equal(false);
    expect(fitsBcrypt('ậ'.repeat(24))).to.equal(true);
    expect(fitsBcrypt('ậ'.repeat(25))).to.equal(false);
  });

  it('bcrypt itself: two passwords equal in their first 72 bytes match each other (why we pre-hash longer ones)', async () => {
    const hash = await bcrypt.hash('x'.repeat(72) + 'first', 4);
    expect(await bcrypt.compare('x'.repeat(72) + 'second', hash)).to.equal(true);
  });

  it('bcryptInput: the NFC password up to 72 bytes, its SHA-256 past that, so every byte counts', async () => {
    expect(bcryptInput('Mật khẩu'.normalize('NFD'))).to.equal('Mật khẩu'.normalize('NFC'));
    expect(bcryptInput('ậ'.repeat(24))).to.equal('ậ'.repeat(24));
    const long = bcryptInput('x'.repeat(72) + 'first');
    expect(long).to.have.length(44);
    expect(long).to.not.equal(bcryptInput('x'.repeat(72) + 'second'));
    expect(bcryptInput('ậ'.repeat(25).normalize('NFD'))).to.equal(bcryptInput('ậ'.repeat(25)));
    const hash = await bcrypt.hash(bcryptInput('x'.repeat(72) + 'first'), 4);
    expect(await bcrypt.compare(bcryptInput('x'.repeat(72) + 'second'), hash)).to.equal(false);
  });

  it('bcryptCost: reads the cost from a hash and rejects non-hashes', async () => {
    expect(bcryptCost(await bcrypt.hash('p', 5))).to.equal(5);
    expect(() => bcryptCost('plain')).to.throw('not a bcrypt hash');
  });
});
