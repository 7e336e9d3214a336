// Proves the secure local profile is what it claims to be (other suites run the kit's TLS/SASL code
// against it): Kafka answers only SASL over TLS with the generated CA, MongoDB only TLS with it, and
// the mTLS route only a client holding a certificate from that CA. kafkajs and the driver are
// configured by hand here on purpose: this checks the servers, not the kit's config module.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Kafka, logLevel, type KafkaConfig, type SASLOptions } from 'kafkajs';
import { MongoClient, type MongoClientOptions } from 'mongodb';
import { startSecureInfra } from './support/secure-infra.js';

type SaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512';

describe('secure local profile (scripts/infra.sh --profile secure)', function () {
  this.timeout(120000);
  let env: Record<string, string>;
  let ca: Buffer;
  const file = (name: string) => readFileSync(env[name]!);

  before(async () => {
    env = await startSecureInfra();
    ca = file('KAFKA_SSL_CA_FILE');
  });

  function kafka(overrides: Partial<KafkaConfig> & { mechanism?: SaslMechanism; password?: string } = {}): Kafka {
    const { mechanism = 'scram-sha-512', password = env.KAFKA_SASL_PASSWORD!, ...config } = overrides;
    const sasl = { mechanism, username: env.KAFKA_SASL_USERNAME!, password } as SASLOptions;
    return new Kafka({
      clientId: 'secure-infra-test',
      brokers: env.KAFKA_BROKERS!.split(','),
      ssl: { ca: [ca] },
      sasl,
      logLevel: logLevel.NOTHING,
      connectionTimeout: 3000,
      retry: { retries: 0 },
      ...config,
    });
  }

  async function connectError(k: Kafka): Promise<Error> {
    const admin = k.admin();
    try {
      await admin.connect();
      await admin.listTopics();
    } catch (err) {
      return err as Error;
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
    throw new Error('connected, but should have been refused');
  }

  describe('Kafka SASL_SSL listener', () => {
    it('produces and consumes a record with SCRAM-SHA-512 over TLS when the client trusts the generated CA', async () => {
      const k = kafka();
      const topic = `secure-infra-${randomUUID()}`;
      const admin = k.admin();
      const producer = k.producer();
      const consumer = k.consumer({ groupId: `secure-infra-${randomUUID()}` });
      try {
        await admin.connect();
        expect(await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true })).to.equal(
          true,
        );
        await producer.connect();
        await producer.send({ topic, messages: [{ key: 'k1', value: 'over SASL_SSL' }] });
        await consumer.connect();
        await consumer.subscribe({ topic, fromBeginning: true });
        const received = await new Promise<string>((resolve) => {
          void consumer.run({ eachMessage: async ({ message }) => resolve(String(message.value)) });
        });
        expect(received).to.equal('over SASL_SSL');
      } finally {
        await Promise.all([consumer.disconnect(), producer.disconnect()]);
        await admin.disconnect();
      }
    });

    for (const mechanism of ['plain', 'scram-sha-256'] as const) {
      it(`authenticates with ${mechanism} and lists the topics`, async () => {
        const admin = kafka({ mechanism }).admin();
        try {
          await admin.connect();
          expect(await admin.listTopics()).to.be.an('array');
        } finally {
          await admin.disconnect();
        }
      });
    }

    it('accepts a client certificate signed by the CA next to SASL (requested, not required)', async () => {
      const ssl = { ca: [ca], cert: file('SECURE_CLIENT_CERT_FILE'), key: file('SECURE_CLIENT_KEY_FILE') };
      const admin = kafka({ ssl }).admin();
      try {
        await admin.connect();
        expect((await admin.describeCluster()).brokers).to.have.length(1);
      } finally {
        await admin.disconnect();
      }
    });

    it('refuses a client that does not trust the CA with a certificate error', async () => {
      const err = await connectError(kafka({ ssl: true }));
      expect(err.message).to.match(/certificate/i);
    });

    it('refuses a wrong password with a SASL authentication error', async () => {
      const err = await connectError(kafka({ password: `${env.KAFKA_SASL_PASSWORD}x` }));
      expect(err.name).to.equal('KafkaJSSASLAuthenticationError');
    });

    it('refuses a client that speaks plaintext', async () => {
      const err = await connectError(kafka({ ssl: false, sasl: undefined }));
      expect(err.name).to.match(/^KafkaJS/);
    });
  });

  describe('MongoDB behind the TLS proxy', () => {
    async function ping(uri: string, options: MongoClientOptions): Promise<number> {
      const client = new MongoClient(uri, { serverSelectionTimeoutMS: 3000, ...options });
      try {
        const reply = await client.db('admin').command({ ping: 1 });
        return Number(reply.ok);
      } finally {
        await client.close();
      }
    }

    it('answers a ping over TLS when the driver trusts the generated CA', async () => {
      expect(await ping(env.MONGODB_URI!, { ca: file('MONGODB_TLS_CA_FILE') })).to.equal(1);
    });

    it('is refused with a certificate error when the driver does not trust the CA', async () => {
      const err = await ping(env.MONGODB_URI!, {}).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err?.message).to.match(/certificate/i);
    });

    it('refuses a client without a certificate on the mTLS port', async () => {
      const err = await ping(env.SECURE_MONGODB_MTLS_URI!, { ca: file('SECURE_CA_FILE') }).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err?.name).to.equal('MongoServerSelectionError');
    });

    it('accepts the generated client certificate on the mTLS port and round-trips a document', async () => {
      const client = new MongoClient(env.SECURE_MONGODB_MTLS_URI!, {
        serverSelectionTimeoutMS: 3000,
        ca: file('SECURE_CA_FILE'),
        cert: file('SECURE_CLIENT_CERT_FILE'),
        key: file('SECURE_CLIENT_KEY_FILE'),
      });
      try {
        const things = client.db(`secure_infra_test_${process.pid}`).collection<{ _id: string }>('things');
        const id = randomUUID();
        await things.insertOne({ _id: id });
        expect(await things.findOne({ _id: id })).to.deep.equal({ _id: id });
        await things.deleteMany({});
      } finally {
        await client.close();
      }
    });
  });

  describe('secrets on disk', () => {
    it('keeps the env file, the password and the broker config (PLAIN password) readable by the owner only', () => {
      const runDir = path.dirname(path.dirname(env.KAFKA_SSL_CA_FILE!));
      for (const name of ['infra.env', 'kafka-sasl.password', 'kafka/server.properties', 'tls/ca.key']) {
        expect((statSync(path.join(runDir, name)).mode & 0o077).toString(8), name).to.equal('0');
      }
    });
  });
});
