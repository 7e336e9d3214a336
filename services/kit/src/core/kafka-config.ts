// Kafka's connection (TLS, SASL) and topic policy, read from KAFKA_* variables: one definition for
// every Kafka client of the platform (services, relays, consumers, the DOCX worker, the operator's
// lag reader, kafka/cli.ts). No express here: the operator imports this module.
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import Joi from 'joi';
import type { ITopicConfig, SASLOptions } from 'kafkajs';
import { TOPIC_CATALOGUE } from '../../../../kafka/topics.js';
import { ConfigError } from './config-error.js';
import type { Registry } from 'prom-client';
import type { Logger } from './logging.js';

export type SaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512';
export type TopicCreation = 'create' | 'verify';

/** What the kafka-config keys validate to; every key optional so a hand-built config works too. */
export interface KafkaClientConfig {
  KAFKA_BROKERS?: string;
  KAFKA_SSL?: boolean;
  KAFKA_SSL_CA_FILE?: string;
  KAFKA_SSL_CERT_FILE?: string;
  KAFKA_SSL_KEY_FILE?: string;
  KAFKA_SASL_MECHANISM?: SaslMechanism;
  KAFKA_SASL_USERNAME?: string;
  KAFKA_SASL_PASSWORD?: string;
  KAFKA_TOPIC_PREFIX?: string;
  KAFKA_TOPIC_CREATION?: TopicCreation;
  KAFKA_TOPIC_REPLICATION_FACTOR?: number;
  KAFKA_TOPIC_MIN_INSYNC_REPLICAS?: number;
  KAFKA_TOPIC_RETENTION_MS?: number;
  KAFKA_TOPICS_JSON?: string;
}

/** A topic as a producer declares it (kafka/topics.json), by its logical name. */
export interface TopicDeclaration {
  name: string;
  partitions: number;
  cleanupPolicy?: 'delete' | 'compact';
}

/** Per-topic overrides of KAFKA_TOPICS_JSON, keyed by logical name. */
export interface TopicOverride {
  partitions?: number;
  replicationFactor?: number;
  minInsyncReplicas?: number;
  retentionMs?: number;
}

export interface TopicPolicy {
  /** -1: the broker's default.replication.factor. */
  replicationFactor: number;
  minInsyncReplicas?: number;
  /** Applies to topics with cleanup.policy=delete; a compacted topic keeps its latest value per key. */
  retentionMs?: number;
  overrides: Readonly<Record<string, TopicOverride>>;
}

/** The kafkajs client options that reach the brokers: TLS and SASL. */
export interface KafkaConnection {
  ssl?: true | ConnectionOptions;
  sasl?: SASLOptions;
}

export const TOPIC_PREFIX_PATTERN = /^[A-Za-z0-9._-]{0,100}$/;

// Empty counts as unset: a chart may render an unused variable as ''.
const optionalString = () => Joi.string().empty('');
const requiredWith = (other: string) =>
  optionalString().when(other, {
    is: Joi.exist(),
    then: Joi.required().messages({ 'any.required': `{{#label}} is required when ${other} is set` }),
  });

/** joi keys of every KAFKA_* variable; spread into a config schema (commonConfig does). */
export const kafkaConfig = {
  KAFKA_BROKERS: Joi.string()
    .pattern(/^[^,\s]+(?:,[^,\s]+)*$/)
    .optional(),
  KAFKA_SSL: Joi.boolean().default(false),
  KAFKA_SSL_CA_FILE: optionalString(),
  KAFKA_SSL_CERT_FILE: optionalString(),
  // Both or neither (joi cannot make two keys depend on each other; the key says which is missing).
  KAFKA_SSL_KEY_FILE: requiredWith('KAFKA_SSL_CERT_FILE')
    .when('KAFKA_SSL_CERT_FILE', { not: Joi.exist(), then: Joi.forbidden() })
    .messages({ 'any.unknown': '{{#label}} is set without KAFKA_SSL_CERT_FILE (both or neither)' }),
  KAFKA_SASL_MECHANISM: optionalString().lowercase().valid('plain', 'scram-sha-256', 'scram-sha-512'),
  KAFKA_SASL_USERNAME: requiredWith('KAFKA_SASL_MECHANISM'),
  // No pattern and no value in any message: joi never echoes it.
  KAFKA_SASL_PASSWORD: requiredWith('KAFKA_SASL_MECHANISM'),
  KAFKA_TOPIC_PREFIX: Joi.string().allow('').pattern(TOPIC_PREFIX_PATTERN).default(''),
  KAFKA_TOPIC_CREATION: Joi.string().valid('create', 'verify').default('create'),
  KAFKA_TOPIC_REPLICATION_FACTOR: Joi.number().integer().min(-1).invalid(0).default(-1),
  KAFKA_TOPIC_MIN_INSYNC_REPLICAS: Joi.number().integer().min(1).optional(),
  KAFKA_TOPIC_RETENTION_MS: Joi.number().integer().min(-1).optional(),
  KAFKA_TOPICS_JSON: optionalString().custom((value: string) => {
    parseTopicOverrides(value);
    return value;
  }),
};

function readPem(variable: string, file: string, marker: RegExp, what: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new ConfigError(`config: "${variable}" cannot be read (${file}): ${code}`);
  }
  if (!marker.test(text)) throw new ConfigError(`config: "${variable}" (${file}) holds no PEM ${what}`);
  return text;
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----/;
const PEM_KEY = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;

function assertPair(config: KafkaClientConfig): void {
  const { KAFKA_SSL_CERT_FILE: cert, KAFKA_SSL_KEY_FILE: key } = config;
  if (cert && !key) throw new ConfigError('config: "KAFKA_SSL_KEY_FILE" is required when KAFKA_SSL_CERT_FILE is set');
  if (key && !cert) throw new ConfigError('config: "KAFKA_SSL_CERT_FILE" is required when KAFKA_SSL_KEY_FILE is set');
}

function sslOptions(config: KafkaClientConfig): KafkaConnection['ssl'] {
  assertPair(config);
  const { KAFKA_SSL_CA_FILE: ca, KAFKA_SSL_CERT_FILE: cert, KAFKA_SSL_KEY_FILE: key } = config;
  if (!config.KAFKA_SSL && !ca && !cert) return undefined;
  // A CA file replaces the system CAs (a private CA); without one, the system CAs verify the brokers.
  const options: ConnectionOptions = {};
  if (ca) options.ca = [readPem('KAFKA_SSL_CA_FILE', ca, PEM_CERT, 'certificate')];
  if (cert && key) {
    options.cert = readPem('KAFKA_SSL_CERT_FILE', cert, PEM_CERT, 'certificate');
    options.key = readPem('KAFKA_SSL_KEY_FILE', key, PEM_KEY, 'private key');
  }
  return Object.keys(options).length > 0 ? options : true;
}

function saslOptions(config: KafkaClientConfig): SASLOptions | undefined {
  const mechanism = config.KAFKA_SASL_MECHANISM;
  if (!mechanism) return undefined;
  const username = config.KAFKA_SASL_USERNAME;
  const password = config.KAFKA_SASL_PASSWORD;
  if (!username) throw new ConfigError('config: "KAFKA_SASL_USERNAME" is required when KAFKA_SASL_MECHANISM is set');
  if (!password) throw new ConfigError('config: "KAFKA_SASL_PASSWORD" is required when KAFKA_SASL_MECHANISM is set');
  return { mechanism, username, password };
}

/**
 * kafkajs `{ ssl, sasl }` from the config. Reads the PEM files now (at start), so a missing or
 * unreadable file fails start with a ConfigError naming its variable; the password is never in a message.
 */
export function kafkaConnection(config: KafkaClientConfig): KafkaConnection {
  const ssl = sslOptions(config);
  const sasl = saslOptions(config);
  return { ...(ssl ? { ssl } : {}), ...(sasl ? { sasl } : {}) };
}

/** One line for a start-up log: the protocol, mechanism and user, never the password or a file's content. */
export function describeKafkaConnection(config: KafkaClientConfig): string {
  const tls = Boolean(config.KAFKA_SSL || config.KAFKA_SSL_CA_FILE || config.KAFKA_SSL_CERT_FILE);
  const protocol = `${config.KAFKA_SASL_MECHANISM ? 'SASL_' : ''}${tls ? 'SSL' : 'PLAINTEXT'}`;
  const who = config.KAFKA_SASL_MECHANISM ? ` ${config.KAFKA_SASL_MECHANISM} as ${config.KAFKA_SASL_USERNAME}` : '';
  const ca = config.KAFKA_SSL_CA_FILE ? ` (CA ${config.KAFKA_SSL_CA_FILE})` : '';
  return `${protocol}${who}${ca}`;
}

const overrideSchema = Joi.object<TopicOverride>({
  partitions: Joi.number().integer().min(1),
  replicationFactor: Joi.number().integer().min(-1).invalid(0),
  minInsyncReplicas: Joi.number().integer().min(1),
  retentionMs: Joi.number().integer().min(-1),
});

/**
 * KAFKA_TOPICS_JSON parsed and checked against kafka/topics.json: keys are logical topic names of
 * the catalogue, partitions may only raise the catalogue's count. Throws an Error saying what is wrong.
 */
export function parseTopicOverrides(json: string): Record<string, TopicOverride> {
  const entries = Object.entries(parseJsonObject(json));
  const unknown = entries.map(([name]) => name).filter((name) => !TOPIC_CATALOGUE.some((t) => t.name === name));
  if (unknown.length > 0)
    throw new Error(`it names topics that are not in kafka/topics.json: ${unknown.join(', ')} (use logical names)`);
  return Object.fromEntries(entries.map(([name, raw]) => [name, checkOverride(name, raw)]));
}

function parseJsonObject(json: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (err) {
    throw new Error(`it is not JSON (${(err as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error('it must be a JSON object keyed by logical topic name');
  return parsed as Record<string, unknown>;
}

function checkOverride(name: string, raw: unknown): TopicOverride {
  const { value, error } = overrideSchema.validate(raw, { convert: false });
  if (error) throw new Error(`${name}: ${error.details[0]?.message ?? error.message}`);
  const declared = TOPIC_CATALOGUE.find((t) => t.name === name)!.partitions;
  if (value.partitions !== undefined && value.partitions < declared)
    throw new Error(
      `${name}: partitions ${value.partitions} is below the catalogue's ${declared} (only raising is allowed)`,
    );
  return value;
}

/** The topic policy of KAFKA_TOPIC_* and KAFKA_TOPICS_JSON. */
export function topicPolicy(config: KafkaClientConfig): TopicPolicy {
  let overrides: Record<string, TopicOverride> = {};
  try {
    if (config.KAFKA_TOPICS_JSON) overrides = parseTopicOverrides(config.KAFKA_TOPICS_JSON);
  } catch (err) {
    throw new ConfigError(`config: "KAFKA_TOPICS_JSON" is invalid: ${(err as Error).message}`);
  }
  return {
    replicationFactor: config.KAFKA_TOPIC_REPLICATION_FACTOR ?? -1,
    ...(config.KAFKA_TOPIC_MIN_INSYNC_REPLICAS !== undefined
      ? { minInsyncReplicas: config.KAFKA_TOPIC_MIN_INSYNC_REPLICAS }
      : {}),
    ...(config.KAFKA_TOPIC_RETENTION_MS !== undefined ? { retentionMs: config.KAFKA_TOPIC_RETENTION_MS } : {}),
    overrides: Object.freeze(overrides),
  };
}

/** The partitions a topic needs: the catalogue's count, or an override's higher one. */
export function requiredPartitions(decl: TopicDeclaration, policy?: TopicPolicy): number {
  return Math.max(decl.partitions, policy?.overrides[decl.name]?.partitions ?? 0);
}

// A compacted topic keeps the latest value per key: a release-wide retention would delete snapshots.
function retentionOf(decl: TopicDeclaration, policy?: TopicPolicy): number | undefined {
  const own = policy?.overrides[decl.name]?.retentionMs;
  return own ?? ((decl.cleanupPolicy ?? 'delete') === 'delete' ? policy?.retentionMs : undefined);
}

function topicConfigEntries(decl: TopicDeclaration, policy?: TopicPolicy): Array<{ name: string; value: string }> {
  const minIsr = policy?.overrides[decl.name]?.minInsyncReplicas ?? policy?.minInsyncReplicas;
  const retention = retentionOf(decl, policy);
  const entries: Array<{ name: string; value: string }> = [
    { name: 'cleanup.policy', value: decl.cleanupPolicy ?? 'delete' },
  ];
  if (minIsr !== undefined) entries.push({ name: 'min.insync.replicas', value: String(minIsr) });
  if (retention !== undefined) entries.push({ name: 'retention.ms', value: String(retention) });
  return entries;
}

/** What createTopics gets for one declared topic under the policy, named `physical` on the wire. */
export function topicCreationSpec(decl: TopicDeclaration, physical: string, policy?: TopicPolicy): ITopicConfig {
  return {
    topic: physical,
    numPartitions: requiredPartitions(decl, policy),
    replicationFactor: policy?.overrides[decl.name]?.replicationFactor ?? policy?.replicationFactor ?? -1,
    configEntries: topicConfigEntries(decl, policy),
  };
}

/** How the kit's event bus connects, names its topics and counts what it dead-letters. */
export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  logger: Logger;
  /** TLS and SASL (kafkaConnection(config)); none: plaintext. */
  connection?: KafkaConnection;
  /**
   * Prepended on the wire to every topic name and consumer group id the code passes (default '').
   * Everything the code sees stays logical: ReceivedMessage.topic and groupId, the dead-letter topic
   * names the kit computes, the `x-dlq-*` headers, the names in the bus's log lines.
   */
  topicPrefix?: string;
  /** Replication factor, min.insync.replicas, retention and per-topic overrides for created topics. */
  topicPolicy?: TopicPolicy;
  /** `create` (default): create missing topics. `verify`: create nothing, check at ensureTopics. */
  topicCreation?: TopicCreation;
  /** The service's registry: `kafka_dead_lettered_total{topic}` counts what its consumers dead-letter. */
  metrics?: Registry;
}

/** createKafkaBus options from a validated config: brokers, TLS/SASL, prefix, topic policy and creation mode. */
export function kafkaBusOptions(config: KafkaClientConfig, clientId: string, logger: Logger): KafkaBusOptions {
  if (!config.KAFKA_BROKERS) throw new ConfigError('config: "KAFKA_BROKERS" is required');
  return {
    brokers: parseBrokers(config.KAFKA_BROKERS),
    clientId,
    logger,
    connection: kafkaConnection(config),
    topicPrefix: config.KAFKA_TOPIC_PREFIX ?? '',
    topicPolicy: topicPolicy(config),
    topicCreation: config.KAFKA_TOPIC_CREATION ?? 'create',
  };
}

export function parseBrokers(value: string): string[] {
  return value
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b.length > 0);
}
