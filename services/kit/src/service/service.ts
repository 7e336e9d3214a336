import type { Express } from 'express';
import type Joi from 'joi';
import type { Registry } from 'prom-client';
import {
  assertTrustBoundary,
  requiresTransactions,
  type CommonConfig,
  reportOnly,
  type HealthChecks,
  type ReadinessState,
  describeKafkaConnection,
  kafkaBusOptions,
  createMetricsRegistry,
  mongoDriverOptions,
  runProcess,
  startProcess,
  type ProcessContext,
  type ProcessDefinition,
  type ProcessHttp,
  type ProcessOptions,
  type ProcessStart,
  guardTokens,
} from '../core/index.js';
import { startKafkaInBackground, createKafkaBus, type EventBus } from '../bus/index.js';
import type { KafkaBusOptions, Logger, RunningServer } from '../core/index.js';
import { connectMongo, mongoCheck, type MongoHandle } from '../data/index.js';
import type { ServiceAppOptions } from '../http/index.js';

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

/** A built service that keeps its dependencies (tests read them) and its background workers' stops. */
export type BuiltWith<D, Extra extends object = object> = BuiltService & {
  deps: D;
  stoppers: Array<() => Promise<unknown>>;
} & Extra;

/** What every service's `buildApp` takes from its context: metrics, readiness, checks and the guard tokens. */
export function appOptions<C extends CommonConfig>(ctx: ServiceContext<C>): ServiceAppOptions {
  return { metrics: ctx.metrics, readiness: ctx.readiness, checks: ctx.checks, ...guardTokens(ctx.config) };
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

/** How startService (and startGateway) run in-process: runProcess's options and the address to listen on. */
export interface StartOptions extends ProcessOptions {
  host?: string;
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
 * A service's whole `main`, on the kit's runProcess: config (a bad value exits 1 with one line
 * naming it), logger, MongoDB (transactions required in production), metrics, the Kafka bus when
 * `KAFKA_BROKERS` is set (connected in the background: the service serves with MongoDB alone while
 * Kafka does not answer), `build`, listen on `PORT`; on SIGTERM fail readiness, run `beforeDrain`,
 * drain HTTP, stop the workers, close Kafka, close MongoDB, exit 0.
 */
export function runService<C extends CommonConfig, B extends BuiltService>(def: ServiceDefinition<C, B>): void {
  runProcess(serviceProcess(def));
}

/** The start-up of runService without the process handling: returns the running service. */
export async function startService<C extends CommonConfig, B extends BuiltService>(
  def: ServiceDefinition<C, B>,
  opts: StartOptions = {},
): Promise<RunningService<C, B>> {
  const running = await startProcess(serviceProcess(def, opts.host), opts);
  const { db, bus, metrics, built } = running.started;
  const { config, logger, shutdown, server, port } = running;
  if (!server || port === undefined) throw new Error(`${def.name}: not serving HTTP`);
  return { server, port, shutdown, config, logger, db, bus, metrics, built };
}

interface ServiceStart<B> extends ProcessStart {
  http: ProcessHttp;
  db: MongoHandle;
  bus?: EventBus;
  metrics: Registry;
  built: B;
}

function serviceProcess<C extends CommonConfig, B extends BuiltService>(
  def: ServiceDefinition<C, B>,
  host?: string,
): ProcessDefinition<C, ServiceStart<B>> {
  return {
    name: def.name,
    configSchema: def.configSchema,
    checkConfig(config) {
      assertTrustBoundary(config);
      def.checkConfig?.(config);
    },
    start: (ctx) => startParts(def, ctx, host),
  };
}

/** MongoDB, metrics, Kafka, build; each closer put ahead of those opened before it. */
async function startParts<C extends CommonConfig, B extends BuiltService>(
  def: ServiceDefinition<C, B>,
  { config, logger, closers }: ProcessContext<C>,
  host: string | undefined,
): Promise<ServiceStart<B>> {
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
  closers.unshift(closing(logger, 'mongodb closed', () => db.conn.close()));
  const metrics = createMetricsRegistry();
  const { bus, kafka } = busOptions ? openBus({ ...busOptions, metrics }, closers) : {};
  const readiness: ReadinessState = { shuttingDown: false };
  const checks: HealthChecks = { mongodb: mongoCheck(db), ...(bus ? { kafka: reportOnly(() => bus.ping()) } : {}) };
  const built = await def.build({ config, logger, db, metrics, bus: kafka?.bus, readiness, checks });
  if (built.stoppers?.length) closers.unshift(...built.stoppers, async () => logger.info('background workers stopped'));
  const listening = async (port: number) => {
    logger.info({ port, ...kafkaSummary(busOptions, config) }, `${def.name} service listening`);
    // Kafka up: its topics and consumers are in place before the start returns (tests rely on it).
    await kafka?.firstPass();
  };
  const http: ProcessHttp = {
    app: built.app,
    port: config.PORT,
    host: host ?? config.HOST,
    readiness,
    graceMs: config.SHUTDOWN_GRACE_MS,
    delayMs: config.SHUTDOWN_DELAY_MS,
    beforeDrain: built.beforeDrain,
    listening,
  };
  return { http, db, bus, metrics, built };
}

/** The bus, and its background start (the service's bus while Kafka may not answer yet); closers ahead. */
function openBus(options: KafkaBusOptions, closers: Array<() => Promise<unknown>>) {
  const bus = createKafkaBus(options);
  const kafka = startKafkaInBackground(bus, options.logger);
  closers.unshift(
    kafka.stop,
    closing(options.logger, 'kafka closed', () => bus.close()),
  );
  return { bus, kafka };
}

function closing(logger: Logger, done: string, close: () => Promise<unknown>): () => Promise<void> {
  return async () => {
    await close();
    logger.info(done);
  };
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
