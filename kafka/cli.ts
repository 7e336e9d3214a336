// A consumer CLI for the platform's topics, for people inspecting what services publish:
//   node --import tsx kafka/cli.ts topics
//   node --import tsx kafka/cli.ts consume <topic> [--from-beginning] [--group <id>] [--max <n>]
//                                          [--timeout <seconds>] [--validate]
// KAFKA_BROKERS (default 127.0.0.1:19092, the dev profile) names the brokers; the services' other
// KAFKA_* variables apply as they do to a service (KAFKA_SSL*, KAFKA_SASL_* for a secured cluster;
// KAFKA_TOPIC_PREFIX: <topic> and --group are logical names, prefixed on the wire, and the printed
// topic is the logical name). Each record prints as one JSON line: { topic, partition, offset, key,
// headers, value } (value parsed when JSON).
// --validate adds { valid, errors } from the event catalogue (kafka/schemas) to each line and
// exits 2 at the end when any record was invalid; it checks as the producers' own tests do (strict:
// a member the catalogue does not name is an error), since it is how one audits what a producer
// emits (consumers, by the compatibility policy, ignore such members). --max and --timeout bound the read.
import { randomUUID } from 'node:crypto';
import Joi from 'joi';
import {
  kafkaBusOptions,
  kafkaConfig,
  runProcess,
  type KafkaClientConfig,
  type ProcessStart,
} from '../services/kit/src/core/index.js';
import { createKafkaBus, type EventBus, type ReceivedMessage } from '../services/kit/src/bus/index.js';
import { validateEvent, type EventValidation } from './event-schemas.js';
import { TOPIC_CATALOGUE } from './topics.js';

const USAGE = 'usage: consume <topic> [--from-beginning] [--group <id>] [--max <n>] [--timeout <seconds>] [--validate]';

export interface ConsumeArgs {
  topic: string;
  fromBeginning: boolean;
  group: string;
  max: number;
  /** Stop after this long even if fewer than `max` records came; Infinity when not given. */
  timeoutMs: number;
  validate: boolean;
}

function positive(flag: string, raw: string | undefined): number {
  const n = Number(raw ?? Infinity);
  if (!(n > 0)) throw new Error(`${flag} must be a positive number`);
  return n;
}

export function parseConsumeArgs(argv: string[]): ConsumeArgs {
  const [topic, ...rest] = argv;
  if (!topic || topic.startsWith('--')) throw new Error(USAGE);
  const value = (flag: string) => {
    const i = rest.indexOf(flag);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  return {
    topic,
    fromBeginning: rest.includes('--from-beginning'),
    group: value('--group') ?? `edu-cli-${randomUUID()}`,
    max: positive('--max', value('--max')),
    timeoutMs: positive('--timeout', value('--timeout')) * 1000,
    validate: rest.includes('--validate'),
  };
}

/** Validates a record's value as a platform event of its topic (a DLQ carries its origin's events). */
export function validateRecord(m: ReceivedMessage): EventValidation {
  if (m.value === null) return { valid: false, errors: ['no value'] };
  let event: unknown;
  try {
    event = JSON.parse(m.value);
  } catch {
    return { valid: false, errors: ['value is not JSON'] };
  }
  // A topic outside the catalogue (a test's, an ad-hoc one) is checked by the events' own types.
  const catalogued = TOPIC_CATALOGUE.some((t) => t.name === m.topic);
  return validateEvent(event, catalogued ? m.topic : undefined, { as: 'producer' });
}

export function formatRecord(m: ReceivedMessage, validation?: EventValidation): string {
  let value: unknown = m.value;
  try {
    value = m.value === null ? null : JSON.parse(m.value);
  } catch {
    // Not JSON: print the raw string.
  }
  const line = { topic: m.topic, partition: m.partition, offset: m.offset, key: m.key, headers: m.headers, value };
  return JSON.stringify(validation ? { ...line, valid: validation.valid, errors: validation.errors } : line);
}

/** Reads until `max` records, the timeout or a signal; resolves with the number of invalid records. */
async function consume(args: ConsumeArgs, bus: EventBus, stopSignal: AbortSignal): Promise<number> {
  let seen = 0;
  let invalid = 0;
  let finish!: () => void;
  const finished = new Promise<void>((r) => (finish = r));
  const sub = await bus.subscribe({
    topic: args.topic,
    groupId: args.group,
    fromBeginning: args.fromBeginning,
    // An inspection tool: never dead-letter, and leave the group quickly when done.
    deadLetterTopic: false,
    session: { fetchMaxWaitMs: 1000 },
    handle: async (m) => {
      if (seen >= args.max) return;
      const validation = args.validate ? validateRecord(m) : undefined;
      if (validation && !validation.valid) invalid += 1;
      process.stdout.write(`${formatRecord(m, validation)}\n`);
      seen += 1;
      if (seen >= args.max) finish();
    },
  });
  const timer = Number.isFinite(args.timeoutMs) ? setTimeout(finish, args.timeoutMs) : undefined;
  stopSignal.addEventListener('abort', finish, { once: true });
  await finished;
  clearTimeout(timer);
  await sub.stop();
  return invalid;
}

const cliConfig = Joi.object<KafkaClientConfig>({
  ...kafkaConfig,
  KAFKA_BROKERS: kafkaConfig.KAFKA_BROKERS.default('127.0.0.1:19092'),
});

/** The command's work: the topic list, or a consume; resolves with the exit code. */
async function run(argv: string[], bus: EventBus, stopSignal: AbortSignal): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'topics') {
    for (const t of TOPIC_CATALOGUE)
      process.stdout.write(
        `${t.name}\t${t.partitions} partitions\tkey=${t.key}\tevents=${t.events.join(',')}\t${t.description}\n`,
      );
    return 0;
  }
  if (command !== 'consume') throw new Error(`usage: kafka/cli.ts topics | ${USAGE}`);
  const invalid = await consume(parseConsumeArgs(rest), bus, stopSignal);
  if (invalid > 0) process.stderr.write(`${invalid} invalid record(s)\n`);
  return invalid > 0 ? 2 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // A one-shot kit process: config, the bus, the work, the bus closed, the work's exit code.
  runProcess<KafkaClientConfig, ProcessStart>({
    name: 'kafka-cli',
    configSchema: cliConfig,
    logLevel: 'warn',
    logDestination: process.stderr,
    async start({ config, logger, closers, stopSignal }) {
      const bus = createKafkaBus(kafkaBusOptions(config, 'edu-kafka-cli', logger));
      closers.push(() => bus.close());
      return { done: run(process.argv.slice(2), bus, stopSignal) };
    },
  });
}
