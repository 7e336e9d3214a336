import { expect } from 'chai';
import Joi from 'joi';
import {
  ConfigError,
  assertTrustBoundary,
  commonConfig,
  loadConfig,
  requiresTransactions,
  type CommonConfig,
} from '../src/core/index.js';

const schema = Joi.object({ ...commonConfig, PORT: Joi.number().port().default(4001) });

describe('loadConfig (pure)', () => {
  it('returns a frozen, converted object with defaults and ignores unrelated variables', () => {
    const c = loadConfig(schema, { MONGODB_URI: 'mongodb://127.0.0.1:1/', PORT: '5000', HOME: '/root' }) as Record<
      string,
      unknown
    >;
    expect(c).to.include({ PORT: 5000, LOG_LEVEL: 'info', NODE_ENV: 'development' });
    expect(c).to.not.have.property('HOME');
    expect(Object.isFrozen(c)).to.equal(true);
  });

  it('fails with one line naming the missing variable', () => {
    expect(() => loadConfig(schema, {})).to.throw(ConfigError, /^config: "MONGODB_URI" is required$/);
  });

  it('fails naming a malformed variable', () => {
    expect(() => loadConfig(schema, { MONGODB_URI: 'http://x', PORT: '1' })).to.throw(ConfigError, /"MONGODB_URI"/);
    expect(() => loadConfig(schema, { MONGODB_URI: 'mongodb://h/', KAFKA_BROKERS: 'a, b' })).to.throw(
      ConfigError,
      /"KAFKA_BROKERS"/,
    );
  });
});

describe('requiresTransactions (pure)', () => {
  const load = (env: Record<string, string>) =>
    loadConfig(schema, {
      MONGODB_URI: 'mongodb://h/',
      INTERNAL_API_TOKEN: 'i'.repeat(32),
      ...env,
    }) as unknown as CommonConfig;

  it('requires transactions in production and nowhere else unless told', () => {
    expect(requiresTransactions(load({ NODE_ENV: 'production' }))).to.equal(true);
    expect(requiresTransactions(load({ NODE_ENV: 'development' }))).to.equal(false);
    expect(requiresTransactions(load({ NODE_ENV: 'test' }))).to.equal(false);
  });

  it('MONGODB_REQUIRE_TRANSACTIONS overrides the default either way, and only takes a boolean', () => {
    expect(requiresTransactions(load({ NODE_ENV: 'production', MONGODB_REQUIRE_TRANSACTIONS: 'false' }))).to.equal(
      false,
    );
    expect(requiresTransactions(load({ NODE_ENV: 'development', MONGODB_REQUIRE_TRANSACTIONS: 'true' }))).to.equal(
      true,
    );
    expect(() => load({ MONGODB_REQUIRE_TRANSACTIONS: 'maybe' })).to.throw(
      ConfigError,
      /"MONGODB_REQUIRE_TRANSACTIONS"/,
    );
  });
});

describe('production trust settings (pure)', () => {
  const load = (env: Record<string, string>) => loadConfig(schema, { MONGODB_URI: 'mongodb://h/', ...env });

  it('a service in production refuses to start without the internal token, naming it', () => {
    const check = (env: Record<string, string>) => () => assertTrustBoundary(load(env) as unknown as CommonConfig);
    expect(check({ NODE_ENV: 'production' })).to.throw(
      ConfigError,
      /^config: "INTERNAL_API_TOKEN" is required in production$/,
    );
    expect(check({ NODE_ENV: 'production', INTERNAL_API_TOKEN: 'i'.repeat(32) })).to.not.throw();
    expect(check({ NODE_ENV: 'development' })).to.not.throw();
    expect(load({ NODE_ENV: 'production', INTERNAL_API_TOKEN: 'i'.repeat(32) })).to.include({ HOST: '0.0.0.0' });
  });

  it('the worker token must differ from the internal token', () => {
    const same = 'w'.repeat(32);
    expect(() => load({ INTERNAL_API_TOKEN: same, WORKER_API_TOKEN: same })).to.throw(
      ConfigError,
      /"WORKER_API_TOKEN" must differ from INTERNAL_API_TOKEN/,
    );
  });

  it('HOST must be an address', () => {
    expect(load({ HOST: '127.0.0.1' })).to.include({ HOST: '127.0.0.1' });
    expect(() => load({ HOST: 'every interface' })).to.throw(ConfigError, /"HOST"/);
  });
});
