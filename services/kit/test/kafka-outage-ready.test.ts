// The "Done when" about a Kafka outage, on the secure local profile: a service built with the
// kit (MongoDB through TLS with the generated CA, Kafka through SASL_SSL) stays Ready while Kafka is
// stopped, its writes succeed, and their events arrive once Kafka is back.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Router, type Express } from 'express';
import Joi from 'joi';
import request from 'supertest';
import {
  commonConfig,
  createLogger,
  createMetricsRegistry,
  kafkaBusOptions,
  kafkaConfig,
  loadConfig,
  reportOnly,
  type CommonConfig,
  type KafkaClientConfig,
} from '../src/core/index.js';
import { createKafkaBus, type EventBus } from '../src/bus/index.js';
import { createOutbox, outboxModels, startOutboxRelay, syncIndexes, type Outbox } from '../src/data/index.js';
import { createApp, ok } from '../src/http/index.js';
import { startService, type RunningService, type ServiceDefinition } from '../src/service/index.js';
import { LogCapture } from './support/log-capture.js';
import { silent, thingModel, waitFor, writeThing } from './support/outbox-fixture.js';
import { startSecureInfra, startSecureKafka, stopSecureKafka } from './support/secure-infra.js';
import { testDbName } from './support/servers.js';

interface Built {
  app: Express;
  outbox: Outbox;
  stoppers: Array<() => Promise<unknown>>;
}

/** A service as services are: topics at start, writes through the outbox, the relay publishing. */
function thingsService(topic: string): ServiceDefinition<CommonConfig, Built> {
  return {
    name: 'kit-outage',
    configSchema: Joi.object<CommonConfig>(commonConfig),
    dbName: testDbName('kit', 'kafka-outage-ready'),
    async build({ db, bus, logger, metrics, readiness, checks }) {
      const Thing = thingModel(db);
      outboxModels(db.conn);
      await syncIndexes(db.conn);
      await bus!.ensureTopics([{ name: topic, partitions: 1 }]);
      const outbox = createOutbox({ db, owners: [Thing], logger });
      // The relay's own backoff, shortened so the test does not sit out minutes after Kafka returns.
      const relay = startOutboxRelay('kafka', { outbox, publish: bus!.publish, backoff: { baseMs: 500, capMs: 5000 } });
      const routes = Router();
      routes.put('/v1/things/:id', async (req, res) => {
        const version = Number((req.body as { version: unknown }).version);
        ok(res, { eventId: await writeThing(outbox, topic, String(req.params.id), version) }, 'OK', 201);
      });
      const app = createApp({
        name: 'kit-outage',
        version: '0',
        routes,
        checks,
        logger,
        metrics,
        openapi: {},
        readiness,
      });
      return { app, outbox, stoppers: [async () => relay?.stop()] };
    },
  };
}

describe('kit /readyz with a report-only check (HTTP, no servers)', () => {
  const failing = async () => {
    throw new Error('no brokers');
  };
  const appWith = (checks: Parameters<typeof createApp>[0]['checks']) =>
    createApp({
      name: 'kit-ready',
      version: '0',
      routes: Router(),
      checks,
      logger: createLogger({ name: 'kit-ready', level: 'silent' }),
      metrics: createMetricsRegistry(),
      openapi: {},
    });

  it('answers 200 with the failing report-only check named in checks', async () => {
    const res = await request(appWith({ mongodb: async () => undefined, kafka: reportOnly(failing) })).get('/readyz');
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.equal({ status: 'ready', checks: { mongodb: 'ok', kafka: 'fail: no brokers' } });
  });

  it('still answers 503 naming a failing gating check, with the report-only one in the details', async () => {
    const res = await request(appWith({ mongodb: failing, kafka: reportOnly(failing) })).get('/readyz');
    expect(res.status).to.equal(503);
    expect(res.body.message).to.equal('Not ready: mongodb');
    expect(res.body.error.details).to.deep.equal({
      failing: ['mongodb'],
      checks: { mongodb: 'fail: no brokers', kafka: 'fail: no brokers' },
    });
  });
});

describe('kit readiness through a Kafka outage (secure profile: SASL_SSL Kafka, TLS MongoDB)', function () {
  // kafka-stop waits (up to 5 min) for other runs on the shared secure profile to finish first.
  this.timeout(900000);
  let env: Record<string, string>;
  let svc: RunningService<CommonConfig, Built> | undefined;
  let kafkaStopped = false;
  const readers: EventBus[] = [];
  const logs = new LogCapture();
  const prefix = `kit-outage-${process.pid}-${randomUUID().slice(0, 8)}.`;
  const topic = `kit-outage.${randomUUID()}`;

  before(async () => {
    env = await startSecureInfra();
    svc = await startService(thingsService(topic), {
      env: { ...env, NODE_ENV: 'test', PORT: '0', LOG_LEVEL: 'info', KAFKA_TOPIC_PREFIX: prefix },
      host: '127.0.0.1',
      logDestination: logs,
      handleSignals: false,
    });
  });
  after(async () => {
    // Never leave the shared secure profile without its Kafka, whatever failed above.
    if (kafkaStopped) await startSecureKafka();
    await Promise.allSettled(readers.map((b) => b.close()));
    await svc?.db.conn.dropDatabase().catch(() => undefined);
    await svc?.shutdown('test over');
  });

  const base = () => `http://127.0.0.1:${svc!.port}`;
  async function readyz(): Promise<{ status: number; checks: Record<string, string> }> {
    const res = await fetch(`${base()}/readyz`);
    const body = (await res.json()) as { data?: { checks: Record<string, string> } };
    return { status: res.status, checks: body.data?.checks ?? {} };
  }
  async function put(id: string, version: number): Promise<{ status: number; eventId?: string }> {
    const res = await fetch(`${base()}/v1/things/${id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ version }),
    });
    const body = (await res.json()) as { data?: { eventId: string } };
    return { status: res.status, eventId: body.data?.eventId };
  }
  /** Reads the topic from the beginning with a fresh group; resolves once `eventId` has arrived. */
  async function arrives(eventId: string, timeoutMs: number): Promise<void> {
    const config = loadConfig(Joi.object<KafkaClientConfig>(kafkaConfig), { ...env, KAFKA_TOPIC_PREFIX: prefix });
    const bus = createKafkaBus(kafkaBusOptions(config, 'kit-outage-reader', silent));
    readers.push(bus);
    const seen = new Set<string>();
    const sub = await bus.consume({
      topic,
      groupId: `kit-outage-reader-${randomUUID()}`,
      fromBeginning: true,
      deadLetterTopic: false,
      handle: async (e) => void seen.add(e.id),
    });
    try {
      await waitFor(() => seen.has(eventId), `event ${eventId} on ${prefix}${topic}`, timeoutMs);
    } finally {
      await sub.stop();
    }
  }

  it('stays Ready with Kafka stopped, takes writes, and delivers their events after Kafka returns', async () => {
    expect(svc!.config.MONGODB_TLS_CA_FILE, 'MongoDB through TLS with the generated CA').to.be.a('string');
    expect(svc!.config.KAFKA_SASL_MECHANISM).to.be.a('string');
    expect(await readyz()).to.deep.equal({ status: 200, checks: { mongodb: 'ok', kafka: 'ok' } });
    const before = await put('thing-before', 1);
    expect(before.status).to.equal(201);
    await arrives(before.eventId!, 60000);

    await stopSecureKafka();
    kafkaStopped = true;
    const seen: Array<{ status: number; checks: Record<string, string> }> = [];
    await waitFor(
      async () => {
        const r = await readyz();
        seen.push(r);
        return r.checks.kafka?.startsWith('fail: ') === true;
      },
      'readiness to report Kafka failing',
      120000,
    );
    // Reported, never gating: every answer during the outage was 200 with MongoDB ok.
    expect(seen.map((r) => [r.status, r.checks.mongodb])).to.deep.equal(seen.map(() => [200, 'ok']));

    const during = await put('thing-during', 1);
    expect(during.status).to.equal(201);
    const again = await put('thing-before', 2);
    expect(again.status).to.equal(201);
    expect((await readyz()).status).to.equal(200);
    // The outage lasts until the relay has failed to publish them at least twice: they wait in the
    // outbox, pending, while the service keeps answering Ready.
    const { Entry } = svc!.built.outbox.models;
    await waitFor(
      async () => (await Entry.countDocuments({ _id: during.eventId, status: 'pending', attempts: { $gte: 2 } })) === 1,
      'the relay to fail publishing during the outage',
      120000,
    );
    expect(await Entry.countDocuments({ _id: { $in: [during.eventId, again.eventId] }, status: 'pending' })).to.equal(
      2,
    );
    expect((await readyz()).status).to.equal(200);

    await startSecureKafka();
    kafkaStopped = false;
    await arrives(during.eventId!, 180000);
    await arrives(again.eventId!, 60000);
    await waitFor(async () => (await readyz()).checks.kafka === 'ok', 'readiness to report Kafka ok again', 60000);
    expect(logs.text).to.not.include(env.KAFKA_SASL_PASSWORD!);
  });
});
