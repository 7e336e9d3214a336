// A `docx-worker` process on the secure profile's SASL_SSL Kafka (SCRAM, private CA), with a release
// topic prefix: the operator hands it the physical queue names, as the chart writes them into the
// DocxImportJob, and the API side (the job use cases in the test process) uses the logical ones.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Kafka, logLevel } from 'kafkajs';
import { kafkaBusOptions, kafkaConnection } from '../../../kit/src/core/index.js';
import { createKafkaBus, type EventBus } from '../../../kit/src/bus/index.js';
import type { MongoHandle } from '../../../kit/src/data/index.js';
import { waitFor } from '../../../kit/test/support/kafka-helpers.js';
import { startSecureInfra } from '../../../kit/test/support/secure-infra.js';
import {
  connect,
  questionsDocx,
  quietLogger,
  SCOPE,
  startWorkerProcess,
  stopWorker,
  testSetup,
  type TestSetup,
  type WorkerProcess,
} from '../jobs/support.js';
import { openJobs, type OpenJobs } from '../../src/domain/jobs/open.js';
import { getJob } from '../../src/domain/jobs/queries.js';
import { submitJob } from '../../src/domain/jobs/submit.js';

const KAFKA_KEYS = [
  'KAFKA_BROKERS',
  'KAFKA_SSL',
  'KAFKA_SSL_CA_FILE',
  'KAFKA_SASL_MECHANISM',
  'KAFKA_SASL_USERNAME',
  'KAFKA_SASL_PASSWORD',
];

describe('docx-worker process on SASL_SSL Kafka with a topic prefix', function () {
  this.timeout(240_000);
  const prefix = `rel-${randomUUID().slice(0, 6)}.`;
  let setup: TestSetup;
  let db: MongoHandle;
  let bus: EventBus;
  let jobs: OpenJobs;
  let worker: WorkerProcess | undefined;

  before(async () => {
    const secure = await startSecureInfra();
    const kafkaEnv = Object.fromEntries(KAFKA_KEYS.filter((k) => secure[k]).map((k) => [k, secure[k]!]));
    setup = testSetup(import.meta.url, { ...kafkaEnv, KAFKA_TOPIC_PREFIX: prefix });
    db = await connect(setup.config);
    bus = createKafkaBus(kafkaBusOptions(setup.config, 'docx-test', quietLogger()));
    jobs = await openJobs({ config: setup.config, db, bus, logger: quietLogger() });
  });
  after(async () => {
    if (worker) await stopWorker(worker);
    await jobs?.close();
    await bus?.close();
    await db?.conn.dropDatabase();
    await db?.conn.close();
  });

  it('takes a job from the physical queue, completes it, and commits as the prefixed group', async () => {
    expect(setup.config.KAFKA_SASL_MECHANISM).to.match(/^scram-sha-(256|512)$/);
    const topic = `${prefix}${setup.config.DOCX_IMPORT_TOPIC}`;
    const group = `${prefix}${setup.config.DOCX_IMPORT_CONSUMER_GROUP}`;
    worker = startWorkerProcess({
      ...setup.env,
      DOCX_IMPORT_TOPIC: topic,
      DOCX_IMPORT_CONSUMER_GROUP: group,
      WORKER_HEALTH_PORT: '0',
    });
    const { job } = await submitJob(jobs.deps, SCOPE, {
      source: { bytes: await questionsDocx(3) },
      fileName: 'secure.docx',
      jobKind: 'QAS',
      jobSource: 'UPLOAD',
    });
    await waitFor(
      `job ${job.id} COMPLETED by the worker (output so far: ${worker.output().slice(-500)})`,
      async () => (await getJob(jobs.deps, SCOPE, job.id)).status === 'COMPLETED',
      180_000,
    );
    expect((await getJob(jobs.deps, SCOPE, job.id)).counters).to.include({ totalQuestions: 3 });

    // What the operator reads: the physical group's committed offset on the physical topic.
    const kafka = new Kafka({
      clientId: 'docx-secure-test',
      brokers: setup.config.KAFKA_BROKERS!.split(','),
      ...kafkaConnection(setup.config),
      logLevel: logLevel.NOTHING,
    });
    const admin = kafka.admin();
    await admin.connect();
    try {
      const committed = await waitFor('the work item committed', async () => {
        const [t] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
        const sum = (t?.partitions ?? []).reduce((n, p) => n + Math.max(0, Number(p.offset)), 0);
        return sum > 0 ? sum : null;
      });
      expect(committed).to.equal(1);
    } finally {
      await admin.disconnect();
    }
    expect(worker.output()).not.to.include(setup.config.KAFKA_SASL_PASSWORD!);
  });
});
