import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { KubeConfig } from '@kubernetes/client-node';
// The kit modules the operator may use, imported directly: the kit's index would also load
// express, mongoose and kafkajs into a process that needs none of them.
import {
  describeKafkaConnection,
  kafkaConnection,
  createMetricsRegistry,
  runProcess,
  type ProcessContext,
  type ProcessStart,
} from '../../services/kit/src/core/index.js';
import { brokerList, leaderTimings, operatorConfigSchema, workerPolicy, type OperatorConfig } from './config.js';
import { Controller } from './controller/controller.js';
import { EventRecorder } from './events.js';
import { boundPort, startHttpServer } from './http.js';
import { makeClients } from './kube/clients.js';
import { LeaderElector } from './leader.js';
import { createOperatorMetrics, describeRequest } from './metrics.js';
import { createQueueDepthReader } from './queue-depth.js';

runProcess<OperatorConfig, ProcessStart>({
  name: 'docx-import-operator',
  configSchema: operatorConfigSchema,
  start: startOperator,
});

/**
 * The operator's start on the kit's runProcess (a bad config value is one line on stderr and exit
 * 1; any later start failure, the port taken or the kubeconfig unreadable, is fatal too: a process
 * without its server or controller must not linger as if it ran). On SIGTERM it stops reconciling
 * while still holding the lease, then hands the lease over: never two leaders at work.
 */
async function startOperator({ config, logger, closers }: ProcessContext<OperatorConfig>): Promise<ProcessStart> {
  // The files the config names (Kafka's CA and client certificate), read before any server is touched.
  const connection = kafkaConnection(config);
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
  closers.push(() => depth.close());
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
  closers.push(async () => void server.close());
  logger.info(
    {
      port: boundPort(server),
      identity,
      leaderElection: config.LEADER_ELECTION,
      kafka: describeKafkaConnection(config),
    },
    'docx-import-operator listening',
  );
  closers.unshift(async () => {
    lead(false);
    await transition;
    await elector?.stop();
  });
  if (elector) elector.start();
  else {
    logger.info('leader election disabled: reconciling as the only instance');
    lead(true);
  }
  return {};
}
