import { connectMongo, createLogger, createMetricsRegistry, loadConfig, runMain, serve } from '../../kit/src/index.js';
import { buildApp, SERVICE_NAME } from './app.js';
import { assertProductionSafe, authConfigSchema } from './config.js';
import { createAuthDeps } from './wiring.js';

runMain(async () => {
  const config = loadConfig(authConfigSchema);
  assertProductionSafe(config);
  const logger = createLogger({ name: SERVICE_NAME, level: config.LOG_LEVEL });
  const db = await connectMongo({
    uri: config.MONGODB_URI,
    dbName: config.MONGODB_DB,
    logger,
    requireTransactions: config.NODE_ENV === 'production',
  });
  const metrics = createMetricsRegistry();
  const deps = await createAuthDeps(db, config, logger, metrics);
  const readiness = { shuttingDown: false };
  const app = buildApp(deps, {
    metrics,
    readiness,
    internalToken: config.INTERNAL_API_TOKEN,
    trustProxy: config.TRUST_PROXY,
  });
  const running = await serve({
    app,
    port: config.PORT,
    logger,
    readiness,
    graceMs: config.SHUTDOWN_GRACE_MS,
    closers: [() => db.conn.close()],
  });
  logger.info({ port: running.port, bcryptCost: config.AUTH_BCRYPT_COST }, 'auth service listening');
});
