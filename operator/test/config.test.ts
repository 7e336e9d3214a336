import { expect } from 'chai';
import { loadConfig } from '../../services/kit/src/config.js';
import { brokerList, leaderTimings, operatorConfigSchema } from '../src/config.js';

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
