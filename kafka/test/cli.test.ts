import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { createKafkaBus, createLogger } from '../../services/kit/src/index.js';
import { testKafkaBrokers } from '../../services/kit/test/support/servers.js';
import { formatRecord, parseConsumeArgs } from '../cli.js';

describe('kafka/cli.ts', () => {
  it('parseConsumeArgs: reads topic, flags and a bounded --max', () => {
    const a = parseConsumeArgs(['docx-import.job-events.v1', '--from-beginning', '--group', 'g1', '--max', '3']);
    expect(a).to.deep.equal({ topic: 'docx-import.job-events.v1', fromBeginning: true, group: 'g1', max: 3 });
    expect(() => parseConsumeArgs([])).to.throw('usage');
    expect(() => parseConsumeArgs(['t', '--max', '0'])).to.throw('--max');
  });

  it('formatRecord: parses JSON values and keeps other values as strings', () => {
    const base = { topic: 't', partition: 0, offset: '5', key: 'k', headers: {} };
    expect(JSON.parse(formatRecord({ ...base, value: '{"a":1}' })).value).to.deep.equal({ a: 1 });
    expect(JSON.parse(formatRecord({ ...base, value: 'plain' })).value).to.equal('plain');
  });

  it('consume: prints what was published to a real topic, one JSON line per record', async function () {
    this.timeout(60000);
    const topic = `cli-test.${randomUUID()}`;
    const bus = createKafkaBus({
      brokers: testKafkaBrokers(),
      clientId: 'cli-test',
      logger: createLogger({ name: 't', level: 'silent' }),
    });
    await bus.ensureTopics([{ name: topic, partitions: 1 }]);
    await bus.publish(topic, [
      { key: 'job-1', value: JSON.stringify({ type: 'job.queued' }) },
      { key: 'job-1', value: JSON.stringify({ type: 'job.started' }) },
    ]);
    await bus.close();
    const cli = fileURLToPath(new URL('../cli.ts', import.meta.url));
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', cli, 'consume', topic, '--from-beginning', '--max', '2'],
      {
        env: { ...process.env, KAFKA_BROKERS: testKafkaBrokers().join(',') },
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    expect(code).to.equal(0);
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { key: string; value: { type: string } });
    expect(lines.map((l) => [l.key, l.value.type])).to.deep.equal([
      ['job-1', 'job.queued'],
      ['job-1', 'job.started'],
    ]);
  });
});
