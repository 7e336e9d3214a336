import {
  createLogger,
  createMetricsRegistry,
  loadConfig,
  serve,
  type Logger,
  type ReadinessState,
  type RunningServer,
  type StartOptions,
} from '../../kit/src/index.js';
import { buildGatewayApp, SERVICE_NAME, type GatewayApp } from './app.js';
import { assertProductionSafe, gatewayConfigSchema, type GatewayConfig } from './config.js';

export interface RunningGateway extends RunningServer {
  config: Readonly<GatewayConfig>;
  logger: Logger;
  gateway: GatewayApp;
}

/**
 * The gateway's main without the process handling. Not a kit ServiceDefinition: it owns no data,
 * so it connects no MongoDB and no Kafka; the start-up and drain are the kit's `serve`, with the
 * services' SHUTDOWN_DELAY_MS and SHUTDOWN_GRACE_MS.
 */
export async function startGateway(opts: StartOptions = {}): Promise<RunningGateway> {
  const config = loadConfig(gatewayConfigSchema, opts.env);
  assertProductionSafe(config);
  const logger = createLogger({ name: SERVICE_NAME, level: config.LOG_LEVEL, destination: opts.logDestination });
  const metrics = createMetricsRegistry();
  const readiness: ReadinessState = { shuttingDown: false };
  const gateway = buildGatewayApp({ config, logger, metrics, readiness });
  const running = await serve({
    app: gateway.app,
    port: config.PORT,
    host: opts.host ?? config.HOST,
    logger,
    readiness,
    graceMs: config.SHUTDOWN_GRACE_MS,
    delayMs: config.SHUTDOWN_DELAY_MS,
    closers: [async () => gateway.close()],
    handleSignals: opts.handleSignals,
  });
  // The kit's serve listens with the Express app; the gateway's listener takes its place before any
  // request can arrive (no I/O runs between 'listening' and here), so `/api` skips Express.
  running.server.removeListener('request', gateway.app);
  running.server.on('request', gateway.listener);
  logger.info(
    { port: running.port, tables: gateway.enabled, legacy: Boolean(config.GATEWAY_LEGACY_URL) },
    'gateway listening',
  );
  return { ...running, config, logger, gateway };
}
