import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { KubeConfig } from '@kubernetes/client-node';
// The three kit modules the operator may use, imported directly: the kit's index would also load
// express, mongoose and kafkajs into a process that needs none of them.
import { loadConfig } from '../../services/kit/src/config.js';
import { describeKafkaConnection, kafkaConnection, type KafkaConnection } from '../../services/kit/src/kafka-config.js';
import { createLogger } from '../../services/kit/src/logging.js';
import { createMetricsRegistry } from '../../services/kit/src/metrics.js';
import { brokerList, leaderTimings, operatorConfigSchema, workerPolicy, type OperatorConfig } from './config.js';
import { Controller } from './controller/controller.js';
import { EventRecorder } from './events.js';
import { boundPort, startHttpServer } from './http.js';
import { makeClients } from './kube/clients.js';
import { LeaderElector } from './leader.js';
import { createOperatorMetrics, describeRequest } from './metrics.js';
import { createQueueDepthReader } from './queue-depth.js';

// The environment and the files it names (Kafka's CA and client certificate), read before any server
// is touched; a problem is one line on stderr and exit 1.
function readConfig(): { config: Readonly<OperatorConfig>; connection: KafkaConnection } {
  try {
    const config = loadConfig(operatorConfigSchema);
    return { config, connection: kafkaConnection(config) };
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}

async function main(): Promise<void> {
  const { config, connection } = readConfig();
  const logger = createLogger({ name: 'docx-import-operator', level: config.LOG_LEVEL });
  process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled rejection'));

  const kc = new KubeConfig();
  if (config.KUBECONFIG) kc.loadFromFile(config.KUBECONFIG);
  else kc.loadFromDefault();

  const registry = createMetricsRegistry();
  const metrics = createOperatorMetrics(registry);
  const clients = makeClients(kc, (method, url) => metrics.apiRequests.inc(describeRequest(method, url)));
  // Unique per process: a restarted pod must not mistake its predecessor's lease for its own.
  const identity = `${config.POD_NAME ?? os.hostname()}_${randomUUID().slice(0, 8)}`;
  const depth = createQueueDepthReader({ brokers: brokerList(config), connection, logger });
  const controller = new Controller({
    kc,
    clients,
    depth,
    events: new EventRecorder(clients.core, identity, logger),
    metrics,
    logger,
    namespace: config.OPERATOR_NAMESPACE,
    resyncSeconds: config.RESYNC_SECONDS,
    watchTimeoutSec: config.WATCH_TIMEOUT_SECONDS,
    queueStatusIntervalSec: config.QUEUE_STATUS_INTERVAL_SECONDS,
    // Called only once reconciling has started, after `elector` below exists.
    mayWrite: () => (elector ? elector.mayWrite() : leading),
    policy: workerPolicy(config),
  });

  // Leadership flips are serialized so a stop still draining never overlaps the next start.
  let transition = Promise.resolve();
  let leading = false;
  const lead = (on: boolean): void => {
    leading = on;
    metrics.leader.set(on ? 1 : 0);
    transition = transition.then(() => (on ? controller.start() : controller.stop()));
  };
  const elector = config.LEADER_ELECTION
    ? new LeaderElector(clients.coordination, {
        namespace: config.LEASE_NAMESPACE ?? config.OPERATOR_NAMESPACE ?? 'default',
        name: config.LEASE_NAME,
        identity,
        durationSec: config.LEASE_DURATION_SECONDS,
        ...leaderTimings(config.LEASE_DURATION_SECONDS),
        onStartedLeading: () => lead(true),
        onStoppedLeading: () => lead(false),
        logger,
      })
    : undefined;

  const server = await startHttpServer(
    config.PORT,
    registry,
    { leader: () => leading, synced: () => controller.synced },
    config.METRICS_TOKEN,
  );
  logger.info(
    {
      port: boundPort(server),
      identity,
      leaderElection: config.LEADER_ELECTION,
      kafka: describeKafkaConnection(config),
    },
    'docx-import-operator listening',
  );
  if (elector) elector.start();
  else {
    logger.info('leader election disabled: reconciling as the only instance');
    lead(true);
  }

  const shutdown = async (signal: string): Promise<void> => {
    logger.info({ signal }, 'shutting down');
    // Stop reconciling while still holding the lease, then hand it over: never two leaders at work.
    lead(false);
    await transition;
    await elector?.stop();
    await depth.close();
    server.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

// A start that fails after the config (the port taken, the kubeconfig unreadable) is fatal: a
// process without its server or controller must not linger as if it ran.
main().catch((err: unknown) => {
  process.stderr.write(`startup failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
