import type { Express } from 'express';
import type Joi from 'joi';
import type { Registry } from 'prom-client';
import { assertTrustBoundary, loadConfig, requiresTransactions, type CommonConfig } from './config.js';
import { reportOnly, type HealthChecks, type ReadinessState } from './health.js';
import { describeKafkaConnection, kafkaBusOptions } from './kafka-config.js';
import { createKafkaBus, type EventBus, type KafkaBusOptions } from './kafka.js';
import { createLogger, type Logger } from './logging.js';
import { createMetricsRegistry } from './metrics.js';
import { mongoDriverOptions } from './mongo-tls.js';
import { connectMongo, mongoCheck, type MongoHandle } from './mongo.js';
import { runMain, serve, type RunningServer } from './server.js';

/** What `build` gets: everything connected, nothing listening yet. */
export interface ServiceContext<C> {
  config: Readonly<C>;
  logger: Logger;
  db: MongoHandle;
  metrics: Registry;
  /** The Kafka bus, present when `KAFKA_BROKERS` is set. */
  bus?: EventBus;
  readiness: ReadinessState;
  /**
   * Readiness checks, ready to pass to createApp: `mongodb` gates readiness; `kafka` (with a bus) is
   * reported in the body but never makes the service unready (the outbox rides out a Kafka outage).
   */
  checks: HealthChecks;
}

/** What `build` returns; a service may add fields of its own (tests read them from `built`). */
export interface BuiltService {
  app: Express;
  /** Run at the start of drain (server-sent-event streams: `StreamRegistry.closeAll`). */
  beforeDrain?: Array<() => void | Promise<void>>;
  /** Background work (outbox relay, consumers), stopped in order after HTTP drained. */
  stoppers?: Array<() => Promise<unknown>>;
}

export interface ServiceDefinition<C extends CommonConfig, B extends BuiltService = BuiltService> {
  name: string;
  configSchema: Joi.ObjectSchema<C>;
  /** The service's database when its config has no `MONGODB_DB`. */
  dbName?: string;
  /** Checks across variables the schema cannot express; throw ConfigError to refuse. */
  checkConfig?: (config: Readonly<C>) => void;
  build(ctx: ServiceContext<C>): Promise<B>;
}

export interface StartOptions {
  /** Where config is read from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  host?: string;
  /** Where log lines go (default stdout); tests pass a LogCapture. */
  logDestination?: NodeJS.WritableStream;
  /** Whether SIGTERM/SIGINT shut down and exit (default true). */
  handleSignals?: boolean;
}

export interface RunningService<C, B> extends RunningServer {
  config: Readonly<C>;
  logger: Logger;
  db: MongoHandle;
  bus?: EventBus;
  metrics: Registry;
  built: B;
}

/**
 * A service's whole `main`: config (a bad value exits 1 with one line naming it), logger,
 * MongoDB (transactions required in production), metrics, the Kafka bus when `KAFKA_BROKERS` is
 * set, `build`, listen on `PORT`; on SIGTERM fail readiness, run `beforeDrain`, drain HTTP, stop
 * the workers, close Kafka, close MongoDB, exit 0.
 */
export function runService<C extends CommonConfig, B extends BuiltService>(def: ServiceDefinition<C, B>): void {
  runMain(() => startService(def));
}

/** The start-up of runService without the process handling: returns the running service. */
export async function startService<C extends CommonConfig, B extends BuiltService>(
  def: ServiceDefinition<C, B>,
  opts: StartOptions = {},
): Promise<RunningService<C, B>> {
  const config = loadConfig(def.configSchema, opts.env);
  assertTrustBoundary(config);
  def.checkConfig?.(config);
  const logger = createLogger({ name: def.name, level: config.LOG_LEVEL, destination: opts.logDestination });
  // Every TLS file is read before anything is dialled: a bad *_FILE path fails start at once.
  const driverOptions = mongoDriverOptions(config);
  const busOptions = config.KAFKA_BROKERS ? kafkaBusOptions(config, def.name, logger) : undefined;
  const db = await connectMongo({
    uri: config.MONGODB_URI,
    dbName: databaseName(def, config),
    logger,
    requireTransactions: requiresTransactions(config),
    driverOptions,
  });
  const metrics = createMetricsRegistry();
  const bus = busOptions && createKafkaBus({ ...busOptions, metrics });
  try {
    const readiness: ReadinessState = { shuttingDown: false };
    const checks: HealthChecks = { mongodb: mongoCheck(db), ...(bus ? { kafka: reportOnly(() => bus.ping()) } : {}) };
    const built = await def.build({ config, logger, db, metrics, bus, readiness, checks });
    const running = await serve({
      app: built.app,
      port: config.PORT,
      host: opts.host ?? config.HOST,
      logger,
      readiness,
      graceMs: config.SHUTDOWN_GRACE_MS,
      delayMs: config.SHUTDOWN_DELAY_MS,
      beforeDrain: built.beforeDrain,
      closers: closersFor(logger, built, bus, db),
      handleSignals: opts.handleSignals,
    });
    logger.info({ port: running.port, ...kafkaSummary(busOptions, config) }, `${def.name} service listening`);
    return { ...running, config, logger, db, bus, metrics, built };
  } catch (err) {
    await bus?.close().catch(() => undefined);
    await db.conn.close().catch(() => undefined);
    throw err;
  }
}

/** What the listening line says about Kafka: protocol, mechanism, user, prefix, mode; never the password. */
function kafkaSummary(options: KafkaBusOptions | undefined, config: CommonConfig) {
  if (!options) return {};
  const { brokers, topicPrefix, topicCreation } = options;
  return { kafka: { connection: describeKafkaConnection(config), brokers, topicPrefix, topicCreation } };
}

function databaseName<C extends CommonConfig>(def: ServiceDefinition<C, BuiltService>, config: Readonly<C>): string {
  const fromConfig = (config as { MONGODB_DB?: unknown }).MONGODB_DB;
  if (typeof fromConfig === 'string') return fromConfig;
  if (def.dbName) return def.dbName;
  throw new Error(`${def.name}: no database name (set dbName or a MONGODB_DB config key)`);
}

/** Workers first (they may still publish or write), then Kafka, then MongoDB, each step logged. */
function closersFor(logger: Logger, built: BuiltService, bus: EventBus | undefined, db: MongoHandle) {
  const closers: Array<() => Promise<unknown>> = [];
  for (const stop of built.stoppers ?? []) closers.push(stop);
  if (built.stoppers?.length) closers.push(async () => logger.info('background workers stopped'));
  if (bus) {
    closers.push(async () => {
      await bus.close();
      logger.info('kafka closed');
    });
  }
  closers.push(async () => {
    await db.conn.close();
    logger.info('mongodb closed');
  });
  return closers;
}
