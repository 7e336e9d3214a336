import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import Joi from 'joi';
import {
  ConfigError,
  loadConfig,
  createLogger,
  mongoDriverOptions,
  mongoTlsConfig,
  type MongoTlsConfig,
} from '../src/core/index.js';
import { connectMongo, redactCredentials } from '../src/data/mongo.js';

const PASSWORD = 'pw-Never-Logged-7f3a';
const schema = Joi.object<MongoTlsConfig>(mongoTlsConfig);
const load = (env: Record<string, string>) => loadConfig(schema, env);
const optionsFor = (env: Record<string, string>) => mongoDriverOptions(load(env));

/** The ConfigError a call throws (fails the test when it throws nothing or something else). */
function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

// Two self-signed certificates with their keys: `a` doubles as a CA, `b`'s key mismatches `a`.
function makeCertificates(dir: string): void {
  for (const name of ['a', 'b']) {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', join(dir, `${name}.key`), '-out', join(dir, `${name}.pem`), '-days', '2', '-subj', `/CN=${name}`,
    ], { stdio: 'ignore' }); // prettier-ignore
  }
}

describe('mongoTlsConfig and mongoDriverOptions (pure)', () => {
  let dir: string;
  const at = (name: string) => join(dir, name);
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'edu-mongo-tls-'));
    makeCertificates(dir);
    writeFileSync(at('not-pem.txt'), 'just text\n');
    writeFileSync(
      at('encrypted.key'),
      '-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n',
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('nothing set: no driver options, so the URI alone decides TLS and credentials', () => {
    expect(optionsFor({})).to.deep.equal({});
  });

  it('empty values count as unset', () => {
    const env = { MONGODB_TLS: '', MONGODB_TLS_CA_FILE: '', MONGODB_USERNAME: '', MONGODB_PASSWORD: '' };
    expect(optionsFor(env)).to.deep.equal({});
  });

  it('MONGODB_TLS=true alone: TLS with the system CAs', () => {
    expect(optionsFor({ MONGODB_TLS: 'true' })).to.deep.equal({ tls: true });
  });

  it('MONGODB_TLS=false alone: no driver options (tls=true in the URI still holds)', () => {
    expect(optionsFor({ MONGODB_TLS: 'false' })).to.deep.equal({});
  });

  it('a CA file implies TLS and is passed as the file contents', () => {
    const options = optionsFor({ MONGODB_TLS_CA_FILE: at('a.pem') });
    expect(options.tls).to.equal(true);
    expect(options.ca?.equals(readFileSync(at('a.pem')))).to.equal(true);
    expect(options).to.not.have.any.keys('cert', 'key', 'auth');
  });

  it('MONGODB_TLS=false with a CA file or a client certificate is refused, naming MONGODB_TLS', () => {
    const ca = configError(() => load({ MONGODB_TLS: 'false', MONGODB_TLS_CA_FILE: at('a.pem') }));
    expect(ca.message).to.equal('config: "MONGODB_TLS" is false but MONGODB_TLS_CA_FILE is set');
    const cert = configError(() =>
      load({ MONGODB_TLS: 'false', MONGODB_TLS_CERT_FILE: at('a.pem'), MONGODB_TLS_KEY_FILE: at('a.key') }),
    );
    expect(cert.message).to.equal('config: "MONGODB_TLS" is false but MONGODB_TLS_CERT_FILE is set');
  });

  it('a client certificate and key: TLS, cert and key contents, no CA (system CAs)', () => {
    const options = optionsFor({ MONGODB_TLS_CERT_FILE: at('a.pem'), MONGODB_TLS_KEY_FILE: at('a.key') });
    expect(options.tls).to.equal(true);
    expect(options.cert?.equals(readFileSync(at('a.pem')))).to.equal(true);
    expect(options.key?.equals(readFileSync(at('a.key')))).to.equal(true);
    expect(options).to.not.have.any.keys('ca');
  });

  it('CA, client certificate and credentials together reach the driver', () => {
    const options = optionsFor({
      MONGODB_TLS: 'true',
      MONGODB_TLS_CA_FILE: at('b.pem'),
      MONGODB_TLS_CERT_FILE: at('a.pem'),
      MONGODB_TLS_KEY_FILE: at('a.key'),
      MONGODB_USERNAME: 'edu',
      MONGODB_PASSWORD: PASSWORD,
      MONGODB_AUTH_SOURCE: 'admin',
    });
    expect(Object.keys(options).sort()).to.deep.equal(['auth', 'authSource', 'ca', 'cert', 'key', 'tls']);
    expect(options.auth).to.deep.equal({ username: 'edu', password: PASSWORD });
    expect(options.authSource).to.equal('admin');
  });

  it('credentials without TLS: auth only (the URI decides the transport)', () => {
    expect(optionsFor({ MONGODB_USERNAME: 'edu', MONGODB_PASSWORD: PASSWORD })).to.deep.equal({
      auth: { username: 'edu', password: PASSWORD },
    });
  });

  it('certificate without key, or key without certificate, is refused naming MONGODB_TLS_KEY_FILE', () => {
    expect(configError(() => load({ MONGODB_TLS_CERT_FILE: at('a.pem') })).message).to.equal(
      'config: "MONGODB_TLS_KEY_FILE" is required with MONGODB_TLS_CERT_FILE (both or neither)',
    );
    expect(configError(() => load({ MONGODB_TLS_KEY_FILE: at('a.key') })).message).to.equal(
      'config: "MONGODB_TLS_KEY_FILE" is set without MONGODB_TLS_CERT_FILE (both or neither)',
    );
  });

  it('username without password, or password without username, is refused without showing the password', () => {
    expect(configError(() => load({ MONGODB_USERNAME: 'edu' })).message).to.equal(
      'config: "MONGODB_PASSWORD" is required with MONGODB_USERNAME (both or neither)',
    );
    const err = configError(() => load({ MONGODB_PASSWORD: PASSWORD }));
    expect(err.message).to.equal('config: "MONGODB_PASSWORD" is set without MONGODB_USERNAME (both or neither)');
    expect(err.stack).to.not.include(PASSWORD);
  });

  it('a missing or unreadable file is refused naming its variable', () => {
    const missing = configError(() => optionsFor({ MONGODB_TLS_CA_FILE: at('absent.pem') }));
    expect(missing.message).to.equal(`config: "MONGODB_TLS_CA_FILE" cannot be read (${at('absent.pem')}: ENOENT)`);
    const folder = configError(() => optionsFor({ MONGODB_TLS_CA_FILE: dir }));
    expect(folder.message).to.equal(`config: "MONGODB_TLS_CA_FILE" cannot be read (${dir}: EISDIR)`);
    const key = configError(() =>
      optionsFor({ MONGODB_TLS_CERT_FILE: at('a.pem'), MONGODB_TLS_KEY_FILE: at('absent.key') }),
    );
    expect(key.message).to.match(/^config: "MONGODB_TLS_KEY_FILE" cannot be read \(.*absent\.key: ENOENT\)$/);
  });

  it('a file without PEM content is refused naming its variable', () => {
    const ca = configError(() => optionsFor({ MONGODB_TLS_CA_FILE: at('not-pem.txt') }));
    expect(ca.message).to.equal(`config: "MONGODB_TLS_CA_FILE" (${at('not-pem.txt')}) holds no PEM certificate`);
    const cert = configError(() =>
      optionsFor({ MONGODB_TLS_CERT_FILE: at('a.key'), MONGODB_TLS_KEY_FILE: at('a.key') }),
    );
    expect(cert.message).to.match(/^config: "MONGODB_TLS_CERT_FILE" .* holds no PEM certificate$/);
    const encrypted = configError(() =>
      optionsFor({ MONGODB_TLS_CERT_FILE: at('a.pem'), MONGODB_TLS_KEY_FILE: at('encrypted.key') }),
    );
    expect(encrypted.message).to.match(/^config: "MONGODB_TLS_KEY_FILE" .* holds no PEM private key \(unencrypted\)$/);
  });

  it('a key that does not match the certificate is refused naming MONGODB_TLS_KEY_FILE', () => {
    const err = configError(() =>
      optionsFor({ MONGODB_TLS_CERT_FILE: at('a.pem'), MONGODB_TLS_KEY_FILE: at('b.key') }),
    );
    expect(err.message).to.match(/^config: "MONGODB_TLS_KEY_FILE" is not usable: .*mismatch/);
  });
});

describe('MongoDB credentials stay out of errors (pure)', () => {
  it('redactCredentials: hides the user-info of every MongoDB URI and the given password', () => {
    const text = `Invalid connection string "mongodb://edu:${PASSWORD}@db:27017/x" and mongodb+srv://a:b@c/ ${PASSWORD}`;
    const out = redactCredentials(text, PASSWORD);
    expect(out).to.equal('Invalid connection string "mongodb://***@db:27017/x" and mongodb+srv://***@c/ ***');
  });

  it('redactCredentials: an unescaped @ in the password is hidden up to the last @', () => {
    expect(redactCredentials('mongodb://edu:p@ss/w@db:1/')).to.equal('mongodb://***@db:1/');
  });

  it('redactCredentials: a URI without credentials is unchanged', () => {
    expect(redactCredentials('connect ECONNREFUSED mongodb://127.0.0.1:1/')).to.equal(
      'connect ECONNREFUSED mongodb://127.0.0.1:1/',
    );
  });

  it('connectMongo: the driver error for a malformed URI does not carry its password', async () => {
    const logger = createLogger({ name: 'kit', level: 'silent' });
    const uri = `mongodb://edu:${PASSWORD}@/db`;
    const err = (await connectMongo({ uri, dbName: 'x', logger }).catch((e: unknown) => e)) as Error;
    expect(err).to.be.instanceOf(Error);
    expect(err.message).to.equal('Protocol and host list are required in "mongodb://***@/db"');
    expect(`${err.message}\n${err.stack}`).to.not.include(PASSWORD);
  });
});
