// Topic administration behind the bus: create missing topics under the policy, or (verify mode)
// only check that the platform team created them, plus the small reads the bus and the operator need.
import type { Admin } from 'kafkajs';
import { requiredPartitions, topicCreationSpec, type TopicDeclaration, type TopicPolicy } from '../core/index.js';
import type { Logger } from '../core/index.js';

/** Logical names (kafka/topics.ts) to the names on the wire, and back. */
export interface TopicNaming {
  prefix: string;
}

export const physicalName = (naming: TopicNaming, name: string): string => `${naming.prefix}${name}`;

export function logicalName(naming: TopicNaming, name: string): string {
  return naming.prefix && name.startsWith(naming.prefix) ? name.slice(naming.prefix.length) : name;
}

const TOPIC_READY_MS = 30_000;

/** Partition count per physical topic; a topic that does not exist is absent from the map. */
export async function partitionCounts(admin: Admin, physical: readonly string[]): Promise<Map<string, number>> {
  const existing = new Set(await admin.listTopics());
  const present = [...new Set(physical)].filter((t) => existing.has(t));
  if (present.length === 0) return new Map();
  const { topics } = await admin.fetchTopicMetadata({ topics: present });
  return new Map(topics.map((t) => [t.name, t.partitions.length]));
}

/** A physical topic's partition count, or undefined when it does not exist (the operator caps workers on it). */
export async function topicPartitionCount(admin: Admin, physical: string): Promise<number | undefined> {
  return (await partitionCounts(admin, [physical])).get(physical);
}

interface Shortfall {
  topic: string;
  has?: number;
  needs: number;
  cleanup: string;
}

async function shortfalls(
  admin: Admin,
  topics: readonly TopicDeclaration[],
  naming: TopicNaming,
  policy?: TopicPolicy,
) {
  const counts = await partitionCounts(
    admin,
    topics.map((t) => physicalName(naming, t.name)),
  );
  const out: Shortfall[] = [];
  for (const t of topics) {
    const topic = physicalName(naming, t.name);
    const needs = requiredPartitions(t, policy);
    const has = counts.get(topic);
    if (has === undefined || has < needs) out.push({ topic, has, needs, cleanup: t.cleanupPolicy ?? 'delete' });
  }
  return out;
}

const describeShortfall = (s: Shortfall): string =>
  s.has === undefined
    ? `${s.topic} (missing; needs ${s.needs} partitions, cleanup.policy=${s.cleanup})`
    : `${s.topic} (has ${s.has} partitions; needs ${s.needs})`;

/**
 * KAFKA_TOPIC_CREATION=verify: creates nothing; throws one error naming every physical topic that
 * is missing or has fewer partitions than declared, and what it needs.
 */
export async function verifyTopics(
  admin: Admin,
  topics: readonly TopicDeclaration[],
  naming: TopicNaming,
  policy?: TopicPolicy,
): Promise<void> {
  const short = await shortfalls(admin, topics, naming, policy);
  if (short.length === 0) return;
  throw new Error(
    `kafka: KAFKA_TOPIC_CREATION=verify and topics are missing or short: ${short.map(describeShortfall).join(', ')}`,
  );
}

export interface CreateTopicsContext {
  naming: TopicNaming;
  policy?: TopicPolicy;
  logger: Logger;
}

/**
 * KAFKA_TOPIC_CREATION=create: creates the missing topics with the policy's partitions, replication
 * factor and configs. An existing topic is never altered (its owner may have tuned it); one with fewer
 * partitions than declared is logged as a warning.
 */
export async function createMissingTopics(
  admin: Admin,
  topics: readonly TopicDeclaration[],
  ctx: CreateTopicsContext,
): Promise<void> {
  const short = await shortfalls(admin, topics, ctx.naming, ctx.policy);
  const missing = short.filter((s) => s.has === undefined).map((s) => s.topic);
  const tooFew = short.filter((s) => s.has !== undefined);
  if (tooFew.length > 0)
    ctx.logger.warn(
      { topics: tooFew.map(describeShortfall) },
      'kafka: existing topics have fewer partitions than declared; the kit does not alter existing topics',
    );
  const specs = topics
    .filter((t) => missing.includes(physicalName(ctx.naming, t.name)))
    .map((t) => topicCreationSpec(t, physicalName(ctx.naming, t.name), ctx.policy));
  if (specs.length === 0) return;
  // kafkajs's own waitForLeaders gives up on the UNKNOWN_TOPIC_OR_PARTITION a busy KRaft broker
  // answers just after creating a topic; waitForLeaders below polls past it instead.
  await admin.createTopics({ waitForLeaders: false, timeout: TOPIC_READY_MS, topics: specs });
  await waitForLeaders(admin, missing);
}

async function waitForLeaders(admin: Admin, names: string[]): Promise<void> {
  const deadline = Date.now() + TOPIC_READY_MS;
  for (;;) {
    const ready = await admin.fetchTopicMetadata({ topics: names }).then(
      ({ topics }) => topics.length === names.length && topics.every((t) => t.partitions.every((p) => p.leader >= 0)),
      () => false,
    );
    if (ready) return;
    if (Date.now() > deadline)
      throw new Error(`topics without a leader after ${TOPIC_READY_MS} ms: ${names.join(', ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// kafkajs answers a subscription to a missing topic with an unhandled rejection inside run(), which
// would crash the process; a clear error from subscribe() is what the caller can act on.
export async function assertTopicsExist(admin: Admin, topic: string, dlq: string | undefined): Promise<void> {
  const existing = new Set(await admin.listTopics());
  if (!existing.has(topic))
    throw new Error(`topic ${topic} does not exist: its producer creates it at start from kafka/topics.json`);
  if (dlq !== undefined && !existing.has(dlq))
    throw new Error(`dead-letter topic ${dlq} does not exist: declare it in kafka/topics.json and create it at start`);
}
