// `node dist/services/cli.js docx-worker`: the parser worker process. No API: the operator scales
// it on the consumer group's lag, the kubelet probes /healthz and /readyz on WORKER_HEALTH_PORT, and
// SIGTERM lets the items in hand finish before it leaves (the kit's runProcess runs the closers).
import {
  describeKafkaConnection,
  kafkaBusOptions,
  mongoDriverOptions,
  requiresTransactions,
  runProcess,
  type ProcessContext,
  type ProcessStart,
} from '../../../kit/src/core/index.js';
import { createKafkaBus, startKafkaInBackground } from '../../../kit/src/bus/index.js';
import { connectMongo } from '../../../kit/src/data/index.js';
import type Joi from 'joi';
import { documentImportConfigSchema, sandboxOptions, workerConcurrency, type DocumentImportConfig } from '../config.js';
import { closeParserSandbox, configureParserSandbox } from '../sandbox/index.js';
import { workerCredential } from './credential.js';
import { approvalPort } from '../domain/ports.js';
import { workerIntegrations } from './integrations.js';
import { stuckAfterMs, WorkerHealth } from './health.js';
import { closeHealth, serveHealth, workerHealthConfig, type WorkerHealthConfig } from './health-server.js';
import { logicalQueue } from './queue-names.js';
import { startWorker } from './worker.js';

type WorkerConfig = DocumentImportConfig & WorkerHealthConfig;

runProcess<WorkerConfig, ProcessStart>({
  name: 'docx-worker',
  configSchema: (documentImportConfigSchema as Joi.ObjectSchema<WorkerConfig>).keys(workerHealthConfig),
  async start(ctx) {
    await startDocxWorker({ ...ctx, config: logicalQueue(workerCredential(ctx.config)) });
    return {};
  },
});

/**
 * Probes first (starting is alive, not ready), then MongoDB, then Kafka in the background: the
 * consumer joins when Kafka answers, and /readyz turns 200 then (a Kafka that answers with a
 * refusal, a wrong password say, fails the start). Closers: the worker (items in hand
 * finish), the parser sandbox, Kafka, MongoDB, the probes.
 */
async function startDocxWorker({ config, logger, closers }: ProcessContext<WorkerConfig>): Promise<void> {
  // Read before anything starts: a missing CA file or SASL setting fails start with one line.
  const busOptions = kafkaBusOptions(config, 'docx-worker', logger);
  const health = new WorkerHealth(Date.now, stuckAfterMs(config, workerConcurrency(config)));
  const probes = await serveHealth(health, { host: config.HOST, port: config.WORKER_HEALTH_PORT }, logger);
  closers.unshift(() => closeHealth(probes));
  const db = await connectMongo({
    uri: config.MONGODB_URI,
    dbName: config.MONGODB_DB,
    logger,
    requireTransactions: requiresTransactions(config),
    driverOptions: mongoDriverOptions(config),
  });
  closers.unshift(() => db.conn.close());
  logger.info({ kafka: describeKafkaConnection(config), topic: config.DOCX_IMPORT_TOPIC }, 'docx worker: Kafka');
  const bus = createKafkaBus(busOptions);
  const kafka = startKafkaInBackground(bus, logger);
  closers.unshift(kafka.stop, () => bus.close());
  configureParserSandbox(sandboxOptions(config, workerConcurrency(config)));
  closers.unshift(closeParserSandbox);
  const worker = await startWorker({
    config,
    db,
    bus: kafka.bus,
    logger,
    health,
    parse: workerIntegrations(config).parse,
    // The same approval (and approval key) as POST .../approve, recorded as auto_approval.*.
    approve: approvalPort(config),
  });
  closers.unshift(async () => logger.info('docx worker stopping'), worker.stop);
  closers.push(async () => logger.info('docx worker stopped'));
  // Kafka up: joined before the start returns; not answering: joins later; refusing (a wrong password): start fails.
  await kafka.firstPass();
}
