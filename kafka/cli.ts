// A consumer CLI for the platform's topics, for people inspecting what services publish:
//   node --import tsx kafka/cli.ts topics
//   node --import tsx kafka/cli.ts consume <topic> [--from-beginning] [--group <id>] [--max <n>]
// KAFKA_BROKERS (default 127.0.0.1:19092, the dev profile) names the brokers. Each record prints
// as one JSON line: { topic, partition, offset, key, headers, value } (value parsed when JSON).
import { randomUUID } from 'node:crypto';
import { createKafkaBus, createLogger, parseBrokers, type ReceivedMessage } from '../services/kit/src/index.js';
import { TOPIC_CATALOGUE } from './topics.js';

interface ConsumeArgs {
  topic: string;
  fromBeginning: boolean;
  group: string;
  max: number;
}

export function parseConsumeArgs(argv: string[]): ConsumeArgs {
  const [topic, ...rest] = argv;
  if (!topic || topic.startsWith('--'))
    throw new Error('usage: consume <topic> [--from-beginning] [--group <id>] [--max <n>]');
  const value = (flag: string) => {
    const i = rest.indexOf(flag);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  const max = Number(value('--max') ?? Infinity);
  if (!(max > 0)) throw new Error('--max must be a positive number');
  return {
    topic,
    fromBeginning: rest.includes('--from-beginning'),
    group: value('--group') ?? `edu-cli-${randomUUID()}`,
    max,
  };
}

export function formatRecord(m: ReceivedMessage): string {
  let value: unknown = m.value;
  try {
    value = m.value === null ? null : JSON.parse(m.value);
  } catch {
    // Not JSON: print the raw string.
  }
  return JSON.stringify({
    topic: m.topic,
    partition: m.partition,
    offset: m.offset,
    key: m.key,
    headers: m.headers,
    value,
  });
}

async function main(argv: string[]): Promise<void> {
  const brokers = parseBrokers(process.env.KAFKA_BROKERS ?? '127.0.0.1:19092');
  const bus = createKafkaBus({
    brokers,
    clientId: 'edu-kafka-cli',
    logger: createLogger({ name: 'kafka-cli', level: 'warn', destination: process.stderr }),
  });
  const [command, ...rest] = argv;
  if (command === 'topics') {
    for (const t of TOPIC_CATALOGUE)
      process.stdout.write(`${t.name}\t${t.partitions} partitions\tkey=${t.key}\t${t.description}\n`);
    return bus.close();
  }
  if (command !== 'consume') throw new Error('usage: kafka/cli.ts topics | consume <topic> [...]');
  const args = parseConsumeArgs(rest);
  let seen = 0;
  let finish!: () => void;
  const finished = new Promise<void>((r) => (finish = r));
  const sub = await bus.subscribe({
    topic: args.topic,
    groupId: args.group,
    fromBeginning: args.fromBeginning,
    handle: async (m) => {
      process.stdout.write(`${formatRecord(m)}\n`);
      seen += 1;
      if (seen >= args.max) finish();
    },
  });
  process.once('SIGINT', finish);
  process.once('SIGTERM', finish);
  await finished;
  await sub.stop();
  await bus.close();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  });
}
