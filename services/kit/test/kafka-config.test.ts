import { mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import Joi from 'joi';
import { TOPICS } from '../../../kafka/topics.js';
import {
  ConfigError,
  commonConfig,
  describeKafkaConnection,
  kafkaBusOptions,
  kafkaConfig,
  kafkaConnection,
  loadConfig,
  parseTopicOverrides,
  topicCreationSpec,
  topicPolicy,
  createLogger,
  type KafkaClientConfig,
} from '../src/core/index.js';

const PASSWORD = 'pa55-w0rd-that-must-never-show';
const CERT = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n';

const schema = Joi.object<KafkaClientConfig>(kafkaConfig);
const load = (env: Record<string, string>) => loadConfig(schema, env);
const service = Joi.object({ ...commonConfig, PORT: Joi.number().port().default(4001) });

/** Runs `fn`, expects a ConfigError and returns its message (for what it must and must not say). */
function configError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('kafkaConfig keys (pure)', () => {
  it('defaults to plaintext, no prefix, create mode and the broker default replication factor', () => {
    expect(load({})).to.deep.equal({
      KAFKA_SSL: false,
      KAFKA_TOPIC_PREFIX: '',
      KAFKA_TOPIC_CREATION: 'create',
      KAFKA_TOPIC_REPLICATION_FACTOR: -1,
    });
  });

  it('is part of commonConfig, so every service validates the KAFKA_* variables', () => {
    const env = { MONGODB_URI: 'mongodb://h/', KAFKA_TOPIC_CREATION: 'verify', KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512' };
    expect(configError(() => loadConfig(service, env))).to.equal(
      'config: "KAFKA_SASL_USERNAME" is required when KAFKA_SASL_MECHANISM is set',
    );
    const ok = loadConfig(service, { ...env, KAFKA_SASL_USERNAME: 'edu', KAFKA_SASL_PASSWORD: PASSWORD });
    expect(ok).to.include({ KAFKA_TOPIC_CREATION: 'verify', KAFKA_SASL_MECHANISM: 'scram-sha-512' });
  });

  it('refuses an unknown mechanism, creation mode, replication factor 0 and a bad prefix, naming each', () => {
    expect(configError(() => load({ KAFKA_SASL_MECHANISM: 'gssapi' }))).to.match(/^config: "KAFKA_SASL_MECHANISM"/);
    expect(configError(() => load({ KAFKA_TOPIC_CREATION: 'off' }))).to.match(/^config: "KAFKA_TOPIC_CREATION"/);
    expect(configError(() => load({ KAFKA_TOPIC_REPLICATION_FACTOR: '0' }))).to.match(
      /^config: "KAFKA_TOPIC_REPLICATION_FACTOR"/,
    );
    expect(configError(() => load({ KAFKA_TOPIC_MIN_INSYNC_REPLICAS: '0' }))).to.match(
      /^config: "KAFKA_TOPIC_MIN_INSYNC_REPLICAS"/,
    );
    expect(configError(() => load({ KAFKA_TOPIC_RETENTION_MS: '-2' }))).to.match(/^config: "KAFKA_TOPIC_RETENTION_MS"/);
    for (const bad of ['a/b', 'has space', 'x'.repeat(101), 'ü'])
      expect(configError(() => load({ KAFKA_TOPIC_PREFIX: bad }))).to.match(/^config: "KAFKA_TOPIC_PREFIX"/);
    for (const good of ['', 'edu-', 'tenant_a.', 'A.b-c_9'])
      expect(load({ KAFKA_TOPIC_PREFIX: good }).KAFKA_TOPIC_PREFIX).to.equal(good);
  });

  it('wants the username and password with a mechanism, and never echoes the password', () => {
    const msg = configError(() => load({ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_PASSWORD: PASSWORD }));
    expect(msg).to.equal('config: "KAFKA_SASL_USERNAME" is required when KAFKA_SASL_MECHANISM is set');
    expect(configError(() => load({ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'edu' }))).to.equal(
      'config: "KAFKA_SASL_PASSWORD" is required when KAFKA_SASL_MECHANISM is set',
    );
    expect(
      configError(() =>
        load({ KAFKA_SASL_MECHANISM: 'bogus', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: PASSWORD }),
      ),
    ).to.not.include(PASSWORD);
  });

  it('wants the client certificate and key together', () => {
    expect(configError(() => load({ KAFKA_SSL_CERT_FILE: '/c.pem' }))).to.equal(
      'config: "KAFKA_SSL_KEY_FILE" is required when KAFKA_SSL_CERT_FILE is set',
    );
    expect(configError(() => load({ KAFKA_SSL_KEY_FILE: '/k.pem' }))).to.equal(
      'config: "KAFKA_SSL_KEY_FILE" is set without KAFKA_SSL_CERT_FILE (both or neither)',
    );
    // A chart renders unused variables empty: empty is unset.
    expect(load({ KAFKA_SSL_CERT_FILE: '', KAFKA_SSL_KEY_FILE: '', KAFKA_SASL_MECHANISM: '' })).to.not.have.any.keys(
      'KAFKA_SSL_CERT_FILE',
      'KAFKA_SSL_KEY_FILE',
      'KAFKA_SASL_MECHANISM',
    );
  });
});

describe('kafkaConnection (pure, files in a temp dir)', () => {
  let dir: string;
  const file = (name: string, text: string) => {
    const p = path.join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  before(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'kafka-config-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is plaintext without SSL or SASL', () => {
    expect(kafkaConnection(load({}))).to.deep.equal({});
    expect(describeKafkaConnection(load({}))).to.equal('PLAINTEXT');
  });

  it('KAFKA_SSL alone uses the system CAs', () => {
    expect(kafkaConnection(load({ KAFKA_SSL: 'true' }))).to.deep.equal({ ssl: true });
  });

  it('a CA file implies TLS and replaces the system CAs with its content', () => {
    const ca = file('ca.pem', CERT);
    expect(kafkaConnection(load({ KAFKA_SSL_CA_FILE: ca }))).to.deep.equal({ ssl: { ca: [CERT] } });
  });

  it('a client certificate and key are read with the CA', () => {
    const env = {
      KAFKA_SSL_CA_FILE: file('ca2.pem', CERT),
      KAFKA_SSL_CERT_FILE: file('client.pem', CERT),
      KAFKA_SSL_KEY_FILE: file('client.key', KEY.replaceAll('PRIVATE KEY', 'RSA PRIVATE KEY')),
    };
    const { ssl } = kafkaConnection(load(env));
    expect(ssl).to.deep.include({ ca: [CERT], cert: CERT });
    expect((ssl as { key: string }).key).to.include('RSA PRIVATE KEY');
  });

  it('every SASL mechanism passes the username and password to kafkajs', () => {
    for (const mechanism of ['plain', 'scram-sha-256', 'scram-sha-512']) {
      const c = load({ KAFKA_SASL_MECHANISM: mechanism, KAFKA_SASL_USERNAME: 'edu', KAFKA_SASL_PASSWORD: PASSWORD });
      expect(kafkaConnection(c)).to.deep.equal({ sasl: { mechanism, username: 'edu', password: PASSWORD } });
    }
    const both = load({
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: file('ca3.pem', CERT),
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'edu',
      KAFKA_SASL_PASSWORD: PASSWORD,
    });
    expect(kafkaConnection(both)).to.have.keys('ssl', 'sasl');
    const line = describeKafkaConnection(both);
    expect(line).to.match(/^SASL_SSL scram-sha-512 as edu \(CA /);
    expect(line).to.not.include(PASSWORD);
  });

  it('a missing or unreadable file is a ConfigError naming its variable', () => {
    expect(configError(() => kafkaConnection(load({ KAFKA_SSL_CA_FILE: path.join(dir, 'nope.pem') })))).to.match(
      /^config: "KAFKA_SSL_CA_FILE" cannot be read \(.*nope\.pem\): ENOENT$/,
    );
    const env = { KAFKA_SSL_CERT_FILE: file('c.pem', CERT), KAFKA_SSL_KEY_FILE: path.join(dir, 'gone.key') };
    expect(configError(() => kafkaConnection(load(env)))).to.match(/^config: "KAFKA_SSL_KEY_FILE" cannot be read/);
    if (process.getuid?.() !== 0) {
      const locked = file('locked.pem', CERT);
      chmodSync(locked, 0o000);
      expect(configError(() => kafkaConnection(load({ KAFKA_SSL_CA_FILE: locked })))).to.match(/EACCES$/);
    }
  });

  it('a file that holds no PEM is refused without printing its content', () => {
    const junk = file('junk.pem', 'secret-looking-junk');
    const msg = configError(() => kafkaConnection(load({ KAFKA_SSL_CA_FILE: junk })));
    expect(msg).to.match(/^config: "KAFKA_SSL_CA_FILE" \(.*junk\.pem\) holds no PEM certificate$/);
    expect(msg).to.not.include('secret-looking-junk');
    const env = { KAFKA_SSL_CERT_FILE: file('c2.pem', CERT), KAFKA_SSL_KEY_FILE: file('k2.pem', CERT) };
    expect(configError(() => kafkaConnection(load(env)))).to.match(/"KAFKA_SSL_KEY_FILE" .* holds no PEM private key$/);
  });

  it('a hand-built config with a half pair or a mechanism without credentials is refused too', () => {
    expect(configError(() => kafkaConnection({ KAFKA_SSL_CERT_FILE: '/x' }))).to.match(
      /"KAFKA_SSL_KEY_FILE" is required/,
    );
    const msg = configError(() => kafkaConnection({ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_PASSWORD: PASSWORD }));
    expect(msg).to.match(/"KAFKA_SASL_USERNAME" is required/);
    expect(msg).to.not.include(PASSWORD);
  });
});

describe('topicPolicy and KAFKA_TOPICS_JSON (pure)', () => {
  const jobs = { name: TOPICS.docxImportJobs, partitions: 6, cleanupPolicy: 'delete' as const };
  const users = { name: TOPICS.identityUserChanged, partitions: 3, cleanupPolicy: 'compact' as const };

  it('parses the release-wide settings and the per-topic overrides', () => {
    const overrides = { [TOPICS.docxImportJobs]: { partitions: 12, replicationFactor: 3, minInsyncReplicas: 2 } };
    const policy = topicPolicy(
      load({
        KAFKA_TOPIC_REPLICATION_FACTOR: '3',
        KAFKA_TOPIC_MIN_INSYNC_REPLICAS: '2',
        KAFKA_TOPIC_RETENTION_MS: '604800000',
        KAFKA_TOPICS_JSON: JSON.stringify(overrides),
      }),
    );
    expect(policy).to.deep.equal({ replicationFactor: 3, minInsyncReplicas: 2, retentionMs: 604800000, overrides });
  });

  it('turns a declaration into createTopics settings under the policy and the physical name', () => {
    const policy = topicPolicy(
      load({
        KAFKA_TOPIC_REPLICATION_FACTOR: '3',
        KAFKA_TOPIC_MIN_INSYNC_REPLICAS: '2',
        KAFKA_TOPIC_RETENTION_MS: '86400000',
        KAFKA_TOPICS_JSON: JSON.stringify({ [TOPICS.docxImportJobs]: { partitions: 12, retentionMs: 3600000 } }),
      }),
    );
    expect(topicCreationSpec(jobs, `edu-${jobs.name}`, policy)).to.deep.equal({
      topic: 'edu-docx-import.jobs.v1',
      numPartitions: 12,
      replicationFactor: 3,
      configEntries: [
        { name: 'cleanup.policy', value: 'delete' },
        { name: 'min.insync.replicas', value: '2' },
        { name: 'retention.ms', value: '3600000' },
      ],
    });
    // A compacted topic keeps the latest snapshot per key: the release-wide retention skips it.
    expect(topicCreationSpec(users, users.name, policy).configEntries).to.deep.equal([
      { name: 'cleanup.policy', value: 'compact' },
      { name: 'min.insync.replicas', value: '2' },
    ]);
    expect(topicCreationSpec(users, users.name)).to.deep.equal({
      topic: users.name,
      numPartitions: 3,
      replicationFactor: -1,
      configEntries: [{ name: 'cleanup.policy', value: 'compact' }],
    });
  });

  it('refuses unknown topic names, partitions below the catalogue, bad fields and non-JSON, naming the variable', () => {
    const bad = (json: string) => configError(() => load({ KAFKA_TOPICS_JSON: json }));
    expect(bad('{"docx-import.jobs": {"partitions": 8}, "nope.v1": {}}')).to.equal(
      'config: "KAFKA_TOPICS_JSON" failed custom validation because it names topics that are not in kafka/topics.json: docx-import.jobs, nope.v1 (use logical names)',
    );
    expect(bad(`{"${TOPICS.docxImportJobs}": {"partitions": 3}}`)).to.match(
      /"KAFKA_TOPICS_JSON" .*docx-import\.jobs\.v1: partitions 3 is below the catalogue's 6/,
    );
    expect(bad(`{"${TOPICS.docxImportJobs}": {"partition": 8}}`)).to.match(
      /"KAFKA_TOPICS_JSON" .*"partition" is not allowed/,
    );
    expect(bad(`{"${TOPICS.docxImportJobs}": {"replicationFactor": "3"}}`)).to.match(/must be a number/);
    expect(bad('{not json')).to.match(/^config: "KAFKA_TOPICS_JSON" .*it is not JSON/);
    expect(bad('[1]')).to.match(/must be a JSON object keyed by logical topic name/);
    expect(() => parseTopicOverrides(`{"${TOPICS.attemptGradedDlq}": {"partitions": 2}}`)).to.not.throw();
    expect(configError(() => topicPolicy({ KAFKA_TOPICS_JSON: '{"x": {}}' }))).to.match(
      /^config: "KAFKA_TOPICS_JSON" is invalid: it names topics/,
    );
  });
});

describe('kafkaBusOptions (pure)', () => {
  const logger = createLogger({ name: 'kafka-config-test', level: 'silent' });

  it('builds brokers, connection, prefix, policy and creation mode from one config', () => {
    const c = load({
      KAFKA_BROKERS: 'a:9093,b:9093',
      KAFKA_SASL_MECHANISM: 'scram-sha-256',
      KAFKA_SASL_USERNAME: 'edu',
      KAFKA_SASL_PASSWORD: PASSWORD,
      KAFKA_TOPIC_PREFIX: 'blue.',
      KAFKA_TOPIC_CREATION: 'verify',
    });
    const opts = kafkaBusOptions(c, 'attempt', logger);
    expect(opts).to.deep.include({
      brokers: ['a:9093', 'b:9093'],
      clientId: 'attempt',
      topicPrefix: 'blue.',
      topicCreation: 'verify',
      connection: { sasl: { mechanism: 'scram-sha-256', username: 'edu', password: PASSWORD } },
    });
    expect(opts.topicPolicy).to.deep.equal({ replicationFactor: -1, overrides: {} });
  });

  it('refuses a config without brokers, naming KAFKA_BROKERS', () => {
    expect(configError(() => kafkaBusOptions(load({}), 'x', logger))).to.equal('config: "KAFKA_BROKERS" is required');
  });
});
