// Shared by the kit's Kafka tests: a bounded poll, unique names, and a raw admin for assertions.
import type { Registry } from 'prom-client';
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import { createKafkaBus, type EventBus, type SessionOptions } from '../../src/bus/index.js';
import { createLogger } from '../../src/core/index.js';
import { testKafkaBrokers } from './servers.js';

/** Polls `check` until it is truthy; fails with `what` after `timeoutMs` (a bound, not a sleep). */
export async function waitFor<T>(what: string, check: () => T | Promise<T>, timeoutMs = 30000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function uniqueTopic(prefix: string): string {
  return `${prefix}.${randomUUID()}`;
}

export function uniqueGroup(prefix: string): string {
  return `${prefix}-${randomUUID()}`;
}

export function testBus(clientId: string, level: 'silent' | 'warn' = 'silent', metrics?: Registry): EventBus {
  return createKafkaBus({
    brokers: testKafkaBrokers(),
    clientId,
    logger: createLogger({ name: clientId, level }),
    metrics,
  });
}

/** A raw kafkajs admin for what the bus deliberately hides (topic configs, group offsets, members). */
export async function testAdmin(): Promise<Admin> {
  const admin = new Kafka({
    clientId: 'kit-test-admin',
    brokers: testKafkaBrokers(),
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  return admin;
}

/** Committed offset of partition 0 for a group, -1 when none. */
export async function committedOffset(admin: Admin, groupId: string, topic: string, partition = 0): Promise<number> {
  const [entry] = await admin.fetchOffsets({ groupId, topics: [topic] });
  const p = entry?.partitions.find((x) => x.partition === partition);
  return p ? Number(p.offset) : -1;
}

/**
 * Short group timing so tests do not wait on kafkajs's 30 s defaults; 6 s is the broker's
 * smallest allowed session timeout (group.min.session.timeout.ms).
 */
export const FAST_SESSION: SessionOptions = {
  sessionTimeout: 6000,
  rebalanceTimeout: 6000,
  heartbeatInterval: 500,
  fetchMaxWaitMs: 500,
};
