import {
  createMetricsRegistry,
  runProcess,
  startProcess,
  type Logger,
  type ProcessContext,
  type ProcessDefinition,
  type ProcessStart,
  type ReadinessState,
  type RunningServer,
} from '../../kit/src/core/index.js';
import type { StartOptions } from '../../kit/src/service/index.js';
import { buildGatewayApp, SERVICE_NAME, type GatewayApp } from './app.js';
import { assertProductionSafe, gatewayConfigSchema, type GatewayConfig } from './config.js';

export interface RunningGateway extends RunningServer {
  config: Readonly<GatewayConfig>;
  logger: Logger;
  gateway: GatewayApp;
}

interface GatewayStart extends ProcessStart {
  gateway: GatewayApp;
}

/**
 * The gateway as a kit process. Not a kit ServiceDefinition: it owns no data, so it connects no
 * MongoDB and no Kafka; the start-up and drain are the kit's runProcess, with the services'
 * SHUTDOWN_DELAY_MS and SHUTDOWN_GRACE_MS.
 */
function gatewayProcess(host?: string): ProcessDefinition<GatewayConfig, GatewayStart> {
  return {
    name: SERVICE_NAME,
    configSchema: gatewayConfigSchema,
    checkConfig: assertProductionSafe,
    async start({ config, logger, closers }: ProcessContext<GatewayConfig>) {
      const readiness: ReadinessState = { shuttingDown: false };
      const gateway = buildGatewayApp({ config, logger, metrics: createMetricsRegistry(), readiness });
      closers.push(async () => gateway.close());
      const listening = (port: number) =>
        logger.info({ port, tables: gateway.enabled, legacy: Boolean(config.GATEWAY_LEGACY_URL) }, 'gateway listening');
      // The gateway's own listener answers (`/api` skips Express; the rest goes to its app).
      const http = {
        app: gateway.listener,
        port: config.PORT,
        host: host ?? config.HOST,
        readiness,
        graceMs: config.SHUTDOWN_GRACE_MS,
        delayMs: config.SHUTDOWN_DELAY_MS,
        listening,
      };
      return { http, gateway };
    },
  };
}

/** The gateway's `main`: see runProcess. */
export function runGateway(): void {
  runProcess(gatewayProcess());
}

/** The gateway's main without the process handling (tests). */
export async function startGateway(opts: StartOptions = {}): Promise<RunningGateway> {
  const running = await startProcess(gatewayProcess(opts.host), opts);
  const { server, port, config, logger, shutdown } = running;
  if (!server || port === undefined) throw new Error('gateway: not serving HTTP');
  return { server, port, shutdown, config, logger, gateway: running.started.gateway };
}
