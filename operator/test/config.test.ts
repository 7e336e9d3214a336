import { expect } from 'chai';
import { loadConfig } from '../../services/kit/src/core/index.js';
import { brokerList, leaderTimings, operatorConfigSchema, workerPolicy } from '../src/config.js';

describe('operator config', () => {
  it('applies the defaults: port 4010, resync 5 s, leader election on, all namespaces', () => {
    const config = loadConfig(operatorConfigSchema, { KAFKA_BROKERS: '127.0.0.1:19192' });
    expect(config).to.include({
      PORT: 4010,
      RESYNC_SECONDS: 5,
      LEADER_ELECTION: true,
      LOG_LEVEL: 'info',
      LEASE_NAME: 'docx-import-operator',
    });
    expect(config.OPERATOR_NAMESPACE).to.equal(undefined);
    expect(Object.isFrozen(config)).to.equal(true);
  });

  it('reads LEADER_ELECTION=false and a broker list', () => {
    const config = loadConfig(operatorConfigSchema, {
      KAFKA_BROKERS: 'a:9092,b:9092',
      LEADER_ELECTION: 'false',
      OPERATOR_NAMESPACE: 'imports',
    });
    expect(config.LEADER_ELECTION).to.equal(false);
    expect(brokerList(config)).to.deep.equal(['a:9092', 'b:9092']);
  });

  const rejects: Array<[string, Record<string, string>]> = [
    ['KAFKA_BROKERS', {}],
    ['RESYNC_SECONDS', { KAFKA_BROKERS: 'k:1', RESYNC_SECONDS: 'often' }],
    ['PORT', { KAFKA_BROKERS: 'k:1', PORT: '70000' }],
    ['LEADER_ELECTION', { KAFKA_BROKERS: 'k:1', LEADER_ELECTION: 'maybe' }],
    ['OPERATOR_NAMESPACE', { KAFKA_BROKERS: 'k:1', OPERATOR_NAMESPACE: 'Not_A_Namespace' }],
    ['LOG_LEVEL', { KAFKA_BROKERS: 'k:1', LOG_LEVEL: 'loud' }],
  ];
  for (const [variable, env] of rejects) {
    it(`fails with one line naming ${variable} when it is missing or invalid`, () => {
      expect(() => loadConfig(operatorConfigSchema, env))
        .to.throw()
        .that.satisfies((err: Error) => {
          expect(err.message).to.include(`"${variable}"`);
          expect(err.message).not.to.include('\n');
          return true;
        });
    });
  }
});

describe('leaderTimings', () => {
  it('keeps client-go proportions: 15 s lease, 10 s renew deadline, 2 s retry', () => {
    expect(leaderTimings(15)).to.deep.equal({ renewDeadlineMs: 10_000, retryMs: 2000 });
  });

  it('keeps retry < renew deadline < lease duration for every lease duration the config accepts', () => {
    for (let sec = 2; sec <= 300; sec++) {
      const { renewDeadlineMs, retryMs } = leaderTimings(sec);
      expect(retryMs, `${sec} s`).to.be.greaterThan(0).and.below(renewDeadlineMs);
      expect(renewDeadlineMs, `${sec} s`).to.be.below(sec * 1000);
    }
  });
});

describe('QUEUE_STATUS_INTERVAL_SECONDS', () => {
  it('defaults to 5 s, accepts 0 (no limit), refuses a negative value', () => {
    expect(loadConfig(operatorConfigSchema, { KAFKA_BROKERS: 'k:1' }).QUEUE_STATUS_INTERVAL_SECONDS).to.equal(5);
    const zero = loadConfig(operatorConfigSchema, { KAFKA_BROKERS: 'k:1', QUEUE_STATUS_INTERVAL_SECONDS: '0' });
    expect(zero.QUEUE_STATUS_INTERVAL_SECONDS).to.equal(0);
    expect(() =>
      loadConfig(operatorConfigSchema, { KAFKA_BROKERS: 'k:1', QUEUE_STATUS_INTERVAL_SECONDS: '-1' }),
    ).to.throw(/QUEUE_STATUS_INTERVAL_SECONDS/);
  });
});

describe('worker policy and metrics token', () => {
  it('reads the worker settings the chart passes into one policy', () => {
    const config = loadConfig(operatorConfigSchema, {
      KAFKA_BROKERS: 'k:1',
      WORKER_SERVICE_ACCOUNT: 'edu-platform',
      WORKER_IMAGE: 'registry.example/edu/platform:1.0',
      WORKER_ALLOWED_IMAGES: 'registry.example/edu/platform,edu-platform:dev',
      WORKER_IMAGE_PULL_SECRETS: 'pull-a,pull-b',
      WORKER_CONFIGMAP: 'edu-platform-docx-parser-worker',
      WORKER_SECRET_ENV:
        'MONGODB_URI=edu-platform-mongodb-uris:document-import,WORKER_API_TOKEN=edu-platform-secrets:WORKER_API_TOKEN',
      WORKER_POD_LABELS: 'app.kubernetes.io/name=edu-platform,app.kubernetes.io/instance=edu,team=',
      WORKER_SECRET_FILES:
        'kafka-ca:ca.crt:/etc/edu-platform/kafka/ca.crt,kafka-client:tls.crt:/etc/edu-platform/kafka/client.crt',
      WORKER_HEALTH_PORT: '9090',
      WORKER_RUN_AS_USER: '10001',
      WORKER_MAX_MEMORY: '1Gi',
    });
    expect(workerPolicy(config)).to.deep.equal({
      serviceAccountName: 'edu-platform',
      defaultImage: 'registry.example/edu/platform:1.0',
      allowedImages: ['registry.example/edu/platform', 'edu-platform:dev'],
      imagePullSecrets: ['pull-a', 'pull-b'],
      configMapName: 'edu-platform-docx-parser-worker',
      secretEnv: [
        { name: 'MONGODB_URI', secret: 'edu-platform-mongodb-uris', key: 'document-import' },
        { name: 'WORKER_API_TOKEN', secret: 'edu-platform-secrets', key: 'WORKER_API_TOKEN' },
      ],
      secretFiles: [
        { secret: 'kafka-ca', key: 'ca.crt', path: '/etc/edu-platform/kafka/ca.crt' },
        { secret: 'kafka-client', key: 'tls.crt', path: '/etc/edu-platform/kafka/client.crt' },
      ],
      healthPort: 9090,
      podLabels: { 'app.kubernetes.io/name': 'edu-platform', 'app.kubernetes.io/instance': 'edu', team: '' },
      runAsUser: 10001,
      runAsGroup: undefined,
      fsGroup: undefined,
      tmpSizeLimit: '64Mi',
      maxResources: { cpu: '2', memory: '1Gi', 'ephemeral-storage': '1Gi' },
    });
  });

  it('allows no image and the default ServiceAccount when nothing is configured', () => {
    const policy = workerPolicy(loadConfig(operatorConfigSchema, { KAFKA_BROKERS: 'k:1' }));
    expect(policy).to.deep.include({
      serviceAccountName: 'default',
      allowedImages: [],
      secretEnv: [],
      secretFiles: [],
      healthPort: 8081,
    });
  });

  it('refuses a malformed secret reference and, in production, a missing METRICS_TOKEN', () => {
    expect(() =>
      loadConfig(operatorConfigSchema, { KAFKA_BROKERS: 'k:1', WORKER_SECRET_ENV: 'TOKEN=secret-without-key' }),
    ).to.throw(/WORKER_SECRET_ENV/);
    expect(() => loadConfig(operatorConfigSchema, { KAFKA_BROKERS: 'k:1', NODE_ENV: 'production' })).to.throw(
      /"METRICS_TOKEN" is required in production/,
    );
    const prod = { KAFKA_BROKERS: 'k:1', NODE_ENV: 'production', METRICS_TOKEN: 'x'.repeat(32) };
    expect(loadConfig(operatorConfigSchema, prod).METRICS_TOKEN).to.have.length(32);
  });
});

describe('WORKER_SECRET_FILES', () => {
  const load = (files: string) =>
    loadConfig(operatorConfigSchema, { KAFKA_BROKERS: 'k:1', WORKER_SECRET_FILES: files });
  const refusals: Array<[string, string, RegExp]> = [
    ['a path outside /etc/edu-platform/', 'ca:ca.crt:/etc/ssl/certs/ca.crt', /must be under \/etc\/edu-platform\//],
    ['a relative path', 'ca:ca.crt:etc/edu-platform/ca.crt', /must be under/],
    ['a path climbing out with ..', 'ca:ca.crt:/etc/edu-platform/../passwd', /no \., \.\./],
    ['an empty segment', 'ca:ca.crt:/etc/edu-platform//ca.crt', /no \., \.\./],
    ['a Secret name that is not DNS-1123', 'Kafka_CA:ca.crt:/etc/edu-platform/kafka/ca.crt', /not a Secret name/],
    ['a key with a slash', 'ca:certs/ca.crt:/etc/edu-platform/kafka/ca.crt', /not a Secret key/],
    ['an entry without a key', 'ca:/etc/edu-platform/kafka/ca.crt', /not a Secret key|secretName:key/],
    ['the same path twice', 'a:x:/etc/edu-platform/k/ca.crt,b:y:/etc/edu-platform/k/ca.crt', /named twice/],
    ['a directory inside another', 'a:x:/etc/edu-platform/k/ca.crt,b:y:/etc/edu-platform/k/sub/c.crt', /lies inside/],
  ];
  for (const [what, value, message] of refusals) {
    it(`refuses ${what}, naming the variable`, () => {
      expect(() => load(value)).to.throw(/WORKER_SECRET_FILES/);
      expect(() => load(value)).to.throw(message);
    });
  }

  it('accepts files of several Secrets in one directory and in sibling directories', () => {
    const value =
      'kafka-ca:ca.crt:/etc/edu-platform/kafka/ca.crt,kafka-user:user.crt:/etc/edu-platform/kafka/client.crt,' +
      'kafka-user:user.key:/etc/edu-platform/kafka/client.key,mongo-ca:ca.crt:/etc/edu-platform/mongodb/ca.crt';
    expect(workerPolicy(load(value)).secretFiles).to.have.length(4);
  });
});
