import { expect } from 'chai';
import { Schema } from 'mongoose';
import { createLogger, mongoDriverOptions } from '../src/core/index.js';
import {
  connectMongo,
  isDuplicateKey,
  mongoCheck,
  syncIndexes,
  withTransaction,
  type MongoHandle,
} from '../src/data/index.js';
import { isNamespaceExists } from '../src/data/mongo.js';
import { LogCapture } from './support/log-capture.js';
import { testDbName, testMongoTransactions, testMongoUri } from './support/servers.js';

const PASSWORD = 'pw-Never-Logged-91c2';

interface Row {
  _id: string;
  key: string;
}

describe('kit mongo (real server)', () => {
  let db: MongoHandle;
  let logs: LogCapture;
  before(async () => {
    logs = new LogCapture();
    db = await connectMongo({
      uri: testMongoUri(),
      dbName: testDbName('kit', 'mongo'),
      logger: createLogger({ name: 'kit', destination: logs }),
    });
    db.conn.model<Row>(
      'Row',
      new Schema<Row>({ _id: String, key: { type: String, unique: true } }, { versionKey: false }),
    );
    await syncIndexes(db.conn);
  });
  after(async () => {
    await db.conn.dropDatabase();
    await db.conn.close();
  });
  beforeEach(() => db.conn.model('Row').deleteMany({}));

  it('learns whether the server runs transactions from its hello reply', function () {
    const said = testMongoTransactions();
    if (said === undefined) this.skip();
    expect(db.transactions).to.equal(said);
  });

  it('withTransaction: commits every write of the callback', async () => {
    const Row = db.conn.model<Row>('Row');
    await withTransaction(db, async (session) => {
      await Row.create([{ _id: 'a', key: 'k1' }], { session });
      await Row.create([{ _id: 'b', key: 'k2' }], { session });
    });
    expect(await Row.countDocuments()).to.equal(2);
  });

  it('withTransaction: without transactions, runs writes in order and says so once in the log', async function () {
    if (db.transactions) this.skip();
    const Row = db.conn.model<Row>('Row');
    for (const id of ['c', 'd'])
      await withTransaction(db, (session) => Row.create([{ _id: id, key: id }], { session }));
    const notes = logs.records().filter((r) => String(r.msg).startsWith('transactions unavailable'));
    expect(notes).to.have.length(1);
  });

  it('withTransaction: with transactions, a failure rolls back the earlier writes', async function () {
    if (!db.transactions) this.skip();
    const Row = db.conn.model<Row>('Row');
    const failing = withTransaction(db, async (session) => {
      await Row.create([{ _id: 'e', key: 'k5' }], { session });
      throw new Error('second write failed');
    });
    const err = await failing.catch((e: unknown) => e);
    expect((err as Error).message).to.equal('second write failed');
    expect(await Row.countDocuments()).to.equal(0);
  });

  it('unique indexes from the schema are enforced, and isDuplicateKey names the key', async () => {
    const Row = db.conn.model<Row>('Row');
    await Row.create({ _id: 'x', key: 'same' });
    const err = await Row.create({ _id: 'y', key: 'same' }).catch((e: unknown) => e);
    expect(isDuplicateKey(err)).to.equal(true);
    expect(isDuplicateKey(err, 'key')).to.equal(true);
    expect(isDuplicateKey(err, 'email')).to.equal(false);
  });

  // Issue 22: mongoose's default would send `create` for a model as it is registered, racing the
  // service's own syncIndexes for the same collection at every start.
  it('registering a model creates no collection (syncIndexes is the one creator, in order)', async () => {
    const Later = db.conn.model('Later', new Schema({ name: { type: String, unique: true } }));
    await Later.init();
    const names = async () => (await db.conn.db!.listCollections().toArray()).map((c) => c.name);
    expect(await names()).to.not.include('laters');
    await syncIndexes(db.conn);
    expect(await names()).to.include('laters');
  });

  it('mongoCheck: passes against the live server and fails once the connection is closed', async () => {
    const other = await connectMongo({
      uri: testMongoUri(),
      dbName: testDbName('kit', 'mongo2'),
      logger: createLogger({ name: 'k', level: 'silent' }),
    });
    await mongoCheck(other)();
    await other.conn.close();
    const err = await mongoCheck(other)().catch((e: unknown) => e);
    expect(err).to.be.instanceOf(Error);
  });

  it('logs the connection with tls and auth flags only (no option values)', () => {
    const line = logs.records().find((r) => r.msg === 'mongodb connected');
    expect(line).to.include({ tls: false, auth: false, transactions: db.transactions });
  });

  // The local stand-in (mongo-java-server) has no authentication at all (`no such command:
  // 'saslStart'`), and a mongod without that user answers `Authentication failed`: either way the
  // refusal proves the driver received the credentials and tried SCRAM with them.
  it('connectMongo with credentials: the driver authenticates, the server refuses, the error hides the password', async () => {
    const err = (await connectMongo({
      uri: testMongoUri(),
      dbName: testDbName('kit', 'mongo3'),
      logger: createLogger({ name: 'k', destination: logs }),
      driverOptions: mongoDriverOptions({ MONGODB_USERNAME: 'edu-nobody', MONGODB_PASSWORD: PASSWORD }),
    }).catch((e: unknown) => e)) as Error;
    expect(err).to.be.instanceOf(Error);
    expect(err.message).to.match(/saslStart|Authentication failed/);
    expect(`${err.message}\n${err.stack}`).to.not.include(PASSWORD);
    expect(logs.text).to.not.include(PASSWORD);
  });
});

describe('isNamespaceExists (pure)', () => {
  it('accepts NamespaceExists by code or name', () => {
    expect(isNamespaceExists({ code: 48, message: 'Collection already exists. NS: a.b' })).to.equal(true);
    expect(isNamespaceExists({ codeName: 'NamespaceExists' })).to.equal(true);
  });

  it("accepts the H2 stand-in's code-less answer to two racing creators (seen in make dev)", () => {
    const message =
      "Unknown error: Document with key 'edu_notifications.notifications' already existed in " +
      'H2Collection(edu_notifications.system.namespaces): {"name" : "edu_notifications.notifications"}';
    expect(isNamespaceExists(new Error(message))).to.equal(true);
  });

  it('refuses every other error', () => {
    expect(isNamespaceExists(new Error('Unknown error: null'))).to.equal(false);
    expect(isNamespaceExists({ code: 11000, message: 'E11000 duplicate key error' })).to.equal(false);
    expect(isNamespaceExists(undefined)).to.equal(false);
  });
});
