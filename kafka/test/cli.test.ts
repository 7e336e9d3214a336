import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { createLogger } from '../../services/kit/src/core/index.js';
import { createKafkaBus, type BusMessage } from '../../services/kit/src/bus/index.js';
import { testKafkaBrokers } from '../../services/kit/test/support/servers.js';
import { formatRecord, parseConsumeArgs, validateRecord } from '../cli.js';
import { EVENT_TYPES, TOPICS } from '../topics.js';
import { clone, VALID_EVENTS } from './examples.js';

const cli = fileURLToPath(new URL('../cli.ts', import.meta.url));

async function publishTo(topic: string, messages: BusMessage[]): Promise<void> {
  const bus = createKafkaBus({
    brokers: testKafkaBrokers(),
    clientId: 'cli-test',
    logger: createLogger({ name: 't', level: 'silent' }),
  });
  try {
    await bus.ensureTopics([{ name: topic, partitions: 1 }]);
    await bus.publish(topic, messages);
  } finally {
    await bus.close();
  }
}

async function runCli(args: string[]): Promise<{ code: number | null; lines: Array<Record<string, unknown>> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], {
    env: { ...process.env, KAFKA_BROKERS: testKafkaBrokers().join(',') },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  const lines = out
    .trim()
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { code, lines };
}

const base = { topic: 't', partition: 0, offset: '5', key: 'k', headers: {} };

describe('kafka/cli.ts', () => {
  it('parseConsumeArgs: reads topic, flags, a bounded --max and --timeout in seconds', () => {
    const a = parseConsumeArgs([
      'docx-import.job-events.v1',
      '--from-beginning',
      '--group',
      'g1',
      '--max',
      '3',
      '--timeout',
      '2.5',
      '--validate',
    ]);
    expect(a).to.deep.equal({
      topic: 'docx-import.job-events.v1',
      fromBeginning: true,
      group: 'g1',
      max: 3,
      timeoutMs: 2500,
      validate: true,
    });
    expect(parseConsumeArgs(['t'])).to.include({ max: Infinity, timeoutMs: Infinity, validate: false });
    expect(() => parseConsumeArgs([])).to.throw('usage');
    expect(() => parseConsumeArgs(['t', '--max', '0'])).to.throw('--max');
    expect(() => parseConsumeArgs(['t', '--timeout', 'soon'])).to.throw('--timeout');
  });

  it('formatRecord: parses JSON values, keeps other values as strings, and adds a validation', () => {
    expect(JSON.parse(formatRecord({ ...base, value: '{"a":1}' })).value).to.deep.equal({ a: 1 });
    expect(JSON.parse(formatRecord({ ...base, value: 'plain' })).value).to.equal('plain');
    expect(JSON.parse(formatRecord({ ...base, value: 'x' }, { valid: false, errors: ['e'] }))).to.include({
      valid: false,
    });
  });

  it('validateRecord: checks the value against the catalogue for the record’s topic, DLQs included', () => {
    const graded = JSON.stringify(VALID_EVENTS[EVENT_TYPES.attemptGraded]);
    expect(validateRecord({ ...base, topic: TOPICS.attemptGraded, value: graded }).valid).to.equal(true);
    expect(validateRecord({ ...base, topic: TOPICS.attemptGradedDlq, value: graded }).valid).to.equal(true);
    expect(validateRecord({ ...base, topic: TOPICS.identityUserChanged, value: graded }).errors).to.deep.equal([
      `topic ${TOPICS.identityUserChanged} does not carry attempt.graded.v1`,
    ]);
    expect(validateRecord({ ...base, topic: 'ad-hoc', value: graded }).valid).to.equal(true);
    expect(validateRecord({ ...base, value: 'not json' }).errors).to.deep.equal(['value is not JSON']);
    expect(validateRecord({ ...base, value: null }).errors).to.deep.equal(['no value']);
  });

  describe('against a real broker', function () {
    this.timeout(90000);

    it('consume: prints what was published to a real topic, one JSON line per record', async () => {
      const topic = `cli-test.${randomUUID()}`;
      await publishTo(topic, [
        { key: 'job-1', value: JSON.stringify({ type: 'job.queued' }) },
        { key: 'job-1', value: JSON.stringify({ type: 'job.started' }) },
      ]);
      const { code, lines } = await runCli(['consume', topic, '--from-beginning', '--max', '2']);
      expect(code).to.equal(0);
      expect(lines.map((l) => [l.key, (l.value as { type: string }).type])).to.deep.equal([
        ['job-1', 'job.queued'],
        ['job-1', 'job.started'],
      ]);
    });

    it('consume --validate: marks each record valid or not and exits 2 when any was invalid', async () => {
      const topic = `cli-test.${randomUUID()}`;
      const good = VALID_EVENTS[EVENT_TYPES.docxImportJobStarted]!;
      const leaky = clone(good) as unknown as { data: Record<string, unknown> };
      leaky.data.payloadRef = '/spool/job-1.docx';
      await publishTo(topic, [
        { key: 'job-1', value: JSON.stringify(good) },
        { key: 'job-1', value: JSON.stringify(leaky) },
      ]);
      const { code, lines } = await runCli(['consume', topic, '--from-beginning', '--max', '2', '--validate']);
      expect(code).to.equal(2);
      expect(lines.map((l) => l.valid)).to.deep.equal([true, false]);
      expect(lines[1]!.errors).to.deep.equal(['/data must NOT have additional properties']);
    });

    it('consume --validate --timeout: stops at the timeout with what it read and exits 0 when all were valid', async () => {
      const topic = `cli-test.${randomUUID()}`;
      const good = VALID_EVENTS[EVENT_TYPES.docxImportJobStarted]!;
      await publishTo(topic, [{ key: 'job-1', value: JSON.stringify(good) }]);
      const { code, lines } = await runCli([
        'consume',
        topic,
        '--from-beginning',
        '--max',
        '5',
        '--timeout',
        '15',
        '--validate',
      ]);
      expect(code).to.equal(0);
      expect(lines.map((l) => [l.valid, (l.value as { id: string }).id])).to.deep.equal([[true, good.id]]);
    });
  });
});
