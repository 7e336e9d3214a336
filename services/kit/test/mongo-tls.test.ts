// MongoDB through TLS with a private CA (scripts/infra.sh --profile secure): a TLS proxy with a
// certificate from a generated CA in front of the MongoDB stand-in, on one port with a server
// certificate only and on another that requires a client certificate.
import { expect } from 'chai';
import { Router } from 'express';
import Joi from 'joi';
import { Schema, type Model } from 'mongoose';
import {
  commonConfig,
  loadConfig,
  type CommonConfig,
  createLogger,
  mongoDriverOptions,
  mongoTlsConfig,
  type MongoTlsConfig,
} from '../src/core/index.js';
import { createApp } from '../src/http/index.js';
import { connectMongo, type MongoHandle } from '../src/data/index.js';
import { startService } from '../src/service/index.js';
import { LogCapture } from './support/log-capture.js';
import { startSecureInfra } from './support/secure-infra.js';
import { testDbName } from './support/servers.js';

const dbName = testDbName('kit', 'mongo_tls');
const silent = createLogger({ name: 'kit', level: 'silent' });
// Bounded failures: the driver retries server selection until this, then reports the last TLS error.
const FAIL_WITHIN_MS = 3000;

/** The driver options the kit builds from these variables (validated as a service would). */
const optionsFrom = (env: Record<string, string | undefined>) =>
  mongoDriverOptions(loadConfig(Joi.object<MongoTlsConfig>(mongoTlsConfig), env));

const connectFails = (uri: string, env: Record<string, string | undefined>) =>
  connectMongo({
    uri,
    dbName,
    logger: silent,
    serverSelectionTimeoutMS: FAIL_WITHIN_MS,
    driverOptions: optionsFrom(env),
  }).then(
    async (db) => {
      await db.conn.close();
      throw new Error('connected, expected a refusal');
    },
    (err: unknown) => err as Error,
  );

interface Note {
  _id: string;
  text: string;
}

async function writeAndRead(db: MongoHandle, id: string): Promise<string | undefined> {
  const Note =
    (db.conn.models.Note as Model<Note> | undefined) ??
    db.conn.model<Note>('Note', new Schema<Note>({ _id: String, text: String }));
  await Note.create({ _id: id, text: `through ${id}` });
  return (await Note.findById(id).lean())?.text;
}

describe('kit mongo over TLS with a private CA (secure profile)', function () {
  this.timeout(300000);
  let env: Record<string, string>;
  const opened: MongoHandle[] = [];
  const open = async (uri: string, vars: Record<string, string | undefined>, logger = silent) => {
    const db = await connectMongo({ uri, dbName, logger, driverOptions: optionsFrom(vars) });
    opened.push(db);
    return db;
  };
  before(async () => {
    env = await startSecureInfra();
  });
  after(async () => {
    await opened[0]?.conn.dropDatabase().catch(() => undefined);
    for (const db of opened) await db.conn.close();
  });

  it('with the CA file: connects through the TLS proxy, writes and reads a document, logs tls: true', async () => {
    const logs = new LogCapture();
    const vars = { MONGODB_TLS: env.MONGODB_TLS, MONGODB_TLS_CA_FILE: env.MONGODB_TLS_CA_FILE };
    const db = await open(env.MONGODB_URI!, vars, createLogger({ name: 'kit', destination: logs }));
    expect(await writeAndRead(db, 'tls')).to.equal('through tls');
    const line = logs.records().find((r) => r.msg === 'mongodb connected');
    expect(line).to.include({ tls: true, auth: false });
  });

  it('without the CA file: refused with a certificate error', async () => {
    const err = await connectFails(env.MONGODB_URI!, { MONGODB_TLS: 'true' });
    expect(err.message).to.match(/self-signed certificate|unable to (get|verify)/);
  });

  it('mTLS port: a client without a certificate is refused (certificate required)', async () => {
    const err = await connectFails(env.SECURE_MONGODB_MTLS_URI!, { MONGODB_TLS_CA_FILE: env.SECURE_CA_FILE });
    expect(err.message).to.match(/certificate required/);
  });

  it('mTLS port: a client with the CA-signed certificate writes and reads', async () => {
    const db = await open(env.SECURE_MONGODB_MTLS_URI!, {
      MONGODB_TLS_CA_FILE: env.SECURE_CA_FILE,
      MONGODB_TLS_CERT_FILE: env.SECURE_CLIENT_CERT_FILE,
      MONGODB_TLS_KEY_FILE: env.SECURE_CLIENT_KEY_FILE,
    });
    expect(await writeAndRead(db, 'mtls')).to.equal('through mtls');
  });

  it('a service started from environment variables only answers /readyz 200 over TLS', async () => {
    const running = await startService(
      {
        name: 'tls-probe',
        configSchema: Joi.object<CommonConfig & { MONGODB_DB: string }>({ ...commonConfig, MONGODB_DB: Joi.string() }),
        async build({ logger, metrics, readiness, checks }) {
          const app = createApp({ name: 'tls-probe', version: '0', routes: Router(), checks, logger, metrics, openapi: {}, readiness }); // prettier-ignore
          return { app };
        },
      },
      {
        env: {
          PORT: '0',
          LOG_LEVEL: 'silent',
          MONGODB_URI: env.MONGODB_URI,
          MONGODB_DB: dbName,
          MONGODB_TLS: env.MONGODB_TLS,
          MONGODB_TLS_CA_FILE: env.MONGODB_TLS_CA_FILE,
        },
        host: '127.0.0.1',
        handleSignals: false,
      },
    );
    try {
      const res = await fetch(`http://127.0.0.1:${running.port}/readyz`);
      expect(res.status).to.equal(200);
    } finally {
      await running.shutdown('test done');
    }
  });
});
