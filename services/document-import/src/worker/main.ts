// `node dist/services/cli.js docx-worker`: the parser worker process. No API: the operator scales
// it on the consumer group's lag, the kubelet probes /healthz and /readyz on WORKER_HEALTH_PORT, and
// SIGTERM lets the items in hand finish before it leaves.
import {
  connectMongo,
  createKafkaBus,
  createLogger,
  describeKafkaConnection,
  kafkaBusOptions,
  loadConfig,
  mongoDriverOptions,
  requiresTransactions,
  runMain,
} from '../../../kit/src/index.js';
import type Joi from 'joi';
import { documentImportConfigSchema, sandboxOptions, workerConcurrency, type DocumentImportConfig } from '../config.js';
import { closeParserSandbox, configureParserSandbox } from '../sandbox/index.js';
import { workerCredential } from './credential.js';
import { autoApprovalHook } from '../domain/approve.js';
import { approvalPort } from '../domain/ports.js';
import { workerIntegrations } from './integrations.js';
import { stuckAfterMs, WorkerHealth } from './health.js';
import { closeHealth, serveHealth, workerHealthConfig, type WorkerHealthConfig } from './health-server.js';
import { logicalQueue } from './queue-names.js';
import { startWorker } from './worker.js';

type WorkerConfig = DocumentImportConfig & WorkerHealthConfig;

async function main(): Promise<void> {
  const schema = (documentImportConfigSchema as Joi.ObjectSchema<WorkerConfig>).keys(workerHealthConfig);
  const config = logicalQueue(workerCredential(loadConfig(schema)));
  const logger = createLogger({ name: 'docx-worker', level: config.LOG_LEVEL });
  // Read before anything starts: a missing CA file or SASL setting fails start with one line.
  const busOptions = kafkaBusOptions(config, 'docx-worker', logger);
  // Up before the consumer joins: starting is alive, not ready.
  const health = new WorkerHealth(Date.now, stuckAfterMs(config, workerConcurrency(config)));
  const probes = await serveHealth(health, { host: config.HOST, port: config.WORKER_HEALTH_PORT }, logger);
  const db = await connectMongo({
    uri: config.MONGODB_URI,
    dbName: config.MONGODB_DB,
    logger,
    requireTransactions: requiresTransactions(config),
    driverOptions: mongoDriverOptions(config),
  });
  logger.info({ kafka: describeKafkaConnection(config), topic: config.DOCX_IMPORT_TOPIC }, 'docx worker: Kafka');
  const bus = createKafkaBus(busOptions);
  configureParserSandbox(sandboxOptions(config, workerConcurrency(config)));
  const worker = await startWorker({ config, db, bus, logger, health, parse: workerIntegrations(config).parse });
  // The same approval (and approval key) as POST .../approve, recorded as auto_approval.*.
  worker.engine.onCompleted(autoApprovalHook(worker.engine, approvalPort(config)));
  let stopping: Promise<void> | undefined;
  const stop = (signal: string) => {
    stopping ??= (async () => {
      logger.info({ signal }, 'docx worker stopping');
      await worker.stop();
      await closeParserSandbox();
      await bus.close();
      await db.conn.close();
      await closeHealth(probes);
      logger.info('docx worker stopped');
    })();
    void stopping.then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

runMain(main);
