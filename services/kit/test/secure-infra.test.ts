// Proves the secure local profile is what it claims to be (other suites run the kit's TLS/SASL code
// against it): Kafka answers only SASL over TLS with the generated CA, MongoDB only TLS with it, and
// the mTLS route only a client holding a certificate from that CA. kafkajs and the driver are
// configured by hand here on purpose: this checks the servers, not the kit's config module.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { Kafka, logLevel, type ISocketFactory, type KafkaConfig, type SASLOptions } from 'kafkajs';
import { MongoClient, type MongoClientOptions } from 'mongodb';
import { startSecureInfra, startSecureKafka, stopSecureKafka } from './support/secure-infra.js';

type SaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512';

/** A key and a self-signed client certificate that no CA of the profile vouches for. */
function selfSignedClient(): { cert: Buffer; key: Buffer } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'secure-infra-stranger-'));
  try {
    const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=stranger',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    return { cert: readFileSync(cert), key: readFileSync(key) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * kafkajs socket factory that connects to 127.0.0.1 whatever broker address the metadata names, as
 * node.sh's DNAT does for pods, records the addresses asked for, and still checks the broker's
 * certificate against the advertised address.
 */
function loopbackSockets(asked: string[]): ISocketFactory {
  return ({ host, port, ssl, onConnect }) => {
    asked.push(`${host}:${port}`);
    return tls.connect(
      { ...ssl, host: '127.0.0.1', port, checkServerIdentity: (_name, cert) => tls.checkServerIdentity(host, cert) },
      onConnect,
    );
  };
}

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
      // A fresh broker answers the first group join with COORDINATOR_NOT_AVAILABLE until it has
      // made __consumer_offsets: the working paths retry; the refusals are asked for with no retry.
      retry: { retries: 8, initialRetryTime: 100 },
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

  const once = { retry: { retries: 0 } };

  // The first record of TOPIC; rejects if the consumer crashes (it would otherwise wait forever).
  async function readFirst(k: Kafka, topic: string): Promise<string> {
    const consumer = k.consumer({ groupId: `secure-infra-${randomUUID()}` });
    try {
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      return await new Promise<string>((resolve, reject) => {
        consumer.on(consumer.events.CRASH, ({ payload }) => reject(payload.error));
        consumer.run({ eachMessage: async ({ message }) => resolve(String(message.value)) }).catch(reject);
      });
    } finally {
      await consumer.disconnect();
    }
  }

  describe('Kafka SASL_SSL listener', () => {
    it('produces and consumes a record with SCRAM-SHA-512 over TLS when the client trusts the generated CA', async () => {
      const k = kafka();
      const topic = `secure-infra-${randomUUID()}`;
      const admin = k.admin();
      const producer = k.producer();
      try {
        await admin.connect();
        expect(await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true })).to.equal(
          true,
        );
        await producer.connect();
        await producer.send({ topic, messages: [{ key: 'k1', value: 'over SASL_SSL' }] });
        expect(await readFirst(k, topic)).to.equal('over SASL_SSL');
      } finally {
        await producer.disconnect();
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
      const err = await connectError(kafka({ ssl: true, ...once }));
      expect(err.message).to.match(/certificate/i);
    });

    it('refuses a wrong password with a SASL authentication error', async () => {
      const err = await connectError(kafka({ password: `${env.KAFKA_SASL_PASSWORD}x`, ...once }));
      expect(err.name).to.equal('KafkaJSSASLAuthenticationError');
    });

    it('advertises the node listener at the node host address, with a certificate valid for it', async () => {
      const asked: string[] = [];
      const admin = kafka({
        brokers: [`127.0.0.1:${env.KAFKA_NODE_BROKERS!.split(':')[1]}`],
        socketFactory: loopbackSockets(asked),
      }).admin();
      try {
        await admin.connect();
        const { brokers } = await admin.describeCluster();
        expect(brokers.map((b) => `${b.host}:${b.port}`)).to.deep.equal([env.KAFKA_NODE_BROKERS]);
        expect(await admin.listTopics()).to.be.an('array');
        expect(asked).to.include(env.KAFKA_NODE_BROKERS);
      } finally {
        await admin.disconnect();
      }
    });

    it('stops and starts only the broker on the same port, keeping its topics, records and SCRAM users', async function () {
      // kafka-stop first waits (up to 300 s) for other runs on this machine to give their leases back.
      this.timeout(420000);
      const k = kafka();
      const topic = `secure-infra-outage-${randomUUID()}`;
      const admin = k.admin();
      const producer = k.producer();
      await admin.connect();
      await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
      await producer.connect();
      await producer.send({ topic, messages: [{ value: 'before the outage' }] });
      await Promise.all([producer.disconnect(), admin.disconnect()]);

      await stopSecureKafka();
      expect((await connectError(kafka(once))).message).to.match(/ECONNREFUSED|Connection error/);
      await startSecureKafka();

      expect(await readFirst(k, topic)).to.equal('before the outage');
    });

    it('refuses a client that speaks plaintext', async () => {
      const err = await connectError(kafka({ ssl: false, sasl: undefined, ...once }));
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
      expect(err?.message).to.match(/certificate required/);
    });

    it('refuses a client certificate that the generated CA did not sign on the mTLS port', async () => {
      const stranger = selfSignedClient();
      const err = await ping(env.SECURE_MONGODB_MTLS_URI!, { ca: file('SECURE_CA_FILE'), ...stranger }).then(
        () => undefined,
        (e: Error) => e,
      );
      // Node's TLS server checks the chain after the handshake and drops the connection without an
      // alert, so the driver sees a closed connection; the next test, identical but for the
      // certificate, is the control.
      expect(err?.name).to.equal('MongoServerSelectionError');
      expect(err?.message).to.match(/closed|reset|hang up/i);
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

    it('writes the SASL password into none of the server logs', () => {
      const runDir = path.dirname(path.dirname(env.KAFKA_SSL_CA_FILE!));
      for (const name of ['kafka.log', 'kafka/format.log', 'tlsproxy.log', 'mongo.log']) {
        expect(readFileSync(path.join(runDir, name), 'utf8'), name).not.to.include(env.KAFKA_SASL_PASSWORD);
      }
    });
  });
});
