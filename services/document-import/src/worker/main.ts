// `node dist/services/cli.js docx-worker`: the parser worker process. No HTTP: the operator scales
// it on the consumer group's lag, and SIGTERM lets the items in hand finish before it leaves.
import {
  ConfigError,
  connectMongo,
  createKafkaBus,
  createLogger,
  loadConfig,
  parseBrokers,
  requiresTransactions,
  runMain,
} from '../../../kit/src/index.js';
import { documentImportConfigSchema, sandboxOptions, workerConcurrency } from '../config.js';
import { closeParserSandbox, configureParserSandbox } from '../sandbox/index.js';
import { workerCredential } from './credential.js';
import { autoApprovalHook } from '../domain/approve.js';
import { approvalPort } from '../domain/ports.js';
import { workerIntegrations } from './integrations.js';
import { startWorker } from './worker.js';

async function main(): Promise<void> {
  const config = workerCredential(loadConfig(documentImportConfigSchema));
  if (!config.KAFKA_BROKERS) throw new ConfigError('config: "KAFKA_BROKERS" is required by the docx worker');
  const logger = createLogger({ name: 'docx-worker', level: config.LOG_LEVEL });
  const db = await connectMongo({
    uri: config.MONGODB_URI,
    dbName: config.MONGODB_DB,
    logger,
    requireTransactions: requiresTransactions(config),
  });
  const bus = createKafkaBus({ brokers: parseBrokers(config.KAFKA_BROKERS), clientId: 'docx-worker', logger });
  configureParserSandbox(sandboxOptions(config, workerConcurrency(config)));
  const worker = await startWorker({ config, db, bus, logger, parse: workerIntegrations(config).parse });
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
