// Kafka in the background of a service's start (issue 24): a service whose Kafka does not answer
// yet serves with MongoDB alone, and its consumer starts once the broker appears.
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { expect } from 'chai';
import { Router, type Express } from 'express';
import Joi from 'joi';
import { commonConfig, type CommonConfig } from '../src/core/index.js';
import { buildEvent, type PlatformEvent } from '../src/bus/index.js';
import { createApp } from '../src/http/index.js';
import { startService, type RunningService, type ServiceDefinition } from '../src/service/index.js';
import { unanswered } from '../src/bus/kafka-start.js';
import { testBus, uniqueGroup, uniqueTopic, waitFor } from './support/kafka-helpers.js';
import { LogCapture } from './support/log-capture.js';
import { testDbName, testKafkaBrokers, testMongoUri } from './support/servers.js';

interface Built {
  app: Express;
  seen: string[];
  stoppers: Array<() => Promise<unknown>>;
}

/** A service as services are: its topic ensured and a consumer started in build. */
function consumingService(topic: string): ServiceDefinition<CommonConfig, Built> {
  return {
    name: 'kit-background',
    configSchema: Joi.object<CommonConfig>(commonConfig),
    dbName: testDbName('kit', 'kafka-background'),
    async build({ bus, logger, metrics, readiness, checks }) {
      const seen: string[] = [];
      await bus!.ensureTopics([{ name: topic, partitions: 1 }]);
      const sub = await bus!.consume({
        topic,
        groupId: uniqueGroup('kit-background'),
        fromBeginning: true,
        deadLetterTopic: false,
        handle: async (e: PlatformEvent) => void seen.push(e.id),
      });
      const app = createApp({
        name: 'kit-background',
        version: '0',
        routes: Router(),
        checks,
        logger,
        metrics,
        openapi: {},
        readiness,
      });
      return { app, seen, stoppers: [() => sub.stop()] };
    },
  };
}

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** The broker appearing at `port`: a TCP relay to the test Kafka (its metadata then names the real broker). */
async function relayTo(port: number, target: string): Promise<{ close(): Promise<void> }> {
  const [host, targetPort] = target.split(':');
  const sockets = new Set<net.Socket>();
  const srv = net.createServer((client) => {
    const upstream = net.connect(Number(targetPort), host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => s.destroy());
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => srv.listen(port, '127.0.0.1', r));
  return {
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        srv.close(() => r());
      }),
  };
}

describe('kit Kafka start: not answering or refusing (pure)', () => {
  it('retries what kafkajs marks retriable, itself or as the cause of its retries exceeded; fails the rest', () => {
    const connection = Object.assign(new Error('Connection error: connect ECONNREFUSED'), { retriable: true });
    const exceeded = Object.assign(new Error(connection.message), { retriable: false, cause: connection });
    const sasl = Object.assign(new Error('SASL SCRAM SHA512 authentication failed'), { retriable: false });
    expect([connection, exceeded, sasl, new Error('topics are missing')].map(unanswered)).to.deep.equal([
      true,
      true,
      false,
      false,
    ]);
  });
});

describe('kit service start with Kafka not answering (real MongoDB and Kafka)', function () {
  this.timeout(180_000);
  let svc: RunningService<CommonConfig, Built> | undefined;
  let relay: { close(): Promise<void> } | undefined;
  const logs = new LogCapture();

  afterEach(async () => {
    await svc?.shutdown('test over');
    await relay?.close();
    svc = undefined;
    relay = undefined;
  });

  it('serves /readyz with MongoDB alone, and its consumer starts once the broker appears', async () => {
    const topic = uniqueTopic('kit-background');
    const port = await closedPort();
    svc = await startService(consumingService(topic), {
      env: {
        NODE_ENV: 'test',
        PORT: '0',
        LOG_LEVEL: 'info',
        MONGODB_URI: testMongoUri(),
        KAFKA_BROKERS: `127.0.0.1:${port}`,
      },
      host: '127.0.0.1',
      logDestination: logs,
      handleSignals: false,
    });
    const ready = await fetch(`http://127.0.0.1:${svc.port}/readyz`);
    expect(ready.status).to.equal(200);
    const body = (await ready.json()) as { data: { checks: Record<string, string> } };
    expect(body.data.checks.mongodb).to.equal('ok');
    expect(body.data.checks.kafka).to.match(/^fail: /);
    expect(logs.text).to.contain('kafka: not answering; retrying in the background');

    relay = await relayTo(port, testKafkaBrokers()[0]!);
    const producer = testBus('kit-background-producer');
    try {
      await waitFor(
        'the topic, created by the service once Kafka answered',
        async () => (await producer.partitionCount(topic)) === 1,
        120_000,
      );
      const event = buildEvent(
        { source: 'test', type: 'test.happened.v1', subject: 's', data: {} },
        new Date(),
        randomUUID(),
      );
      await producer.publish(topic, [{ key: 's', value: JSON.stringify(event) }]);
      await waitFor('the consumer to receive the event', () => svc!.built.seen.includes(event.id), 120_000);
    } finally {
      await producer.close();
    }
    expect(logs.text).to.contain('kafka: answered; started');
  });
});
