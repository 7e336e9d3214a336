import mongoose, { type ClientSession, type Connection } from 'mongoose';
import type { Logger, MongoDriverOptions } from '../core/index.js';

export interface MongoHandle {
  conn: Connection;
  /** True when the server runs multi-document transactions (a replica set or sharded cluster). */
  transactions: boolean;
  logger: Logger;
  /** Set once the fallback has been announced, so the log says it once, not per write. */
  fallbackAnnounced: boolean;
}

export interface ConnectOptions {
  uri: string;
  dbName: string;
  logger: Logger;
  /** Production refuses a server without transactions: ordered writes are a development compromise. */
  requireTransactions?: boolean;
  serverSelectionTimeoutMS?: number;
  /** TLS (CA, client certificate) and credentials: `mongoDriverOptions(config)`. */
  driverOptions?: MongoDriverOptions;
}

/** Opens a connection to one service's own database and learns whether it can run transactions. */
export async function connectMongo(opts: ConnectOptions): Promise<MongoHandle> {
  const conn = mongoose.createConnection(opts.uri, {
    ...opts.driverOptions,
    dbName: opts.dbName,
    serverSelectionTimeoutMS: opts.serverSelectionTimeoutMS ?? 10000,
    autoIndex: false,
    // Nor collections at model registration: mongoose would send `create` for every model in the
    // background, racing syncIndexes' own `create` of the same collection at every start. The
    // service's syncIndexes creates them, one after the other, before it serves.
    autoCreate: false,
    // Fail at once with a 503 when MongoDB is gone, instead of queueing requests for 10 s.
    bufferCommands: false,
  });
  try {
    await conn.asPromise();
  } catch (err) {
    throw withoutCredentials(err, opts.driverOptions?.auth?.password);
  }
  const transactions = await supportsTransactions(conn);
  if (!transactions && opts.requireTransactions) {
    await conn.close();
    throw new Error(
      'MongoDB at MONGODB_URI cannot run transactions (not a replica set); production mode requires them',
    );
  }
  const tls = opts.driverOptions?.tls === true;
  const auth = opts.driverOptions?.auth !== undefined;
  opts.logger.info({ dbName: opts.dbName, transactions, tls, auth }, 'mongodb connected');
  return { conn, transactions, logger: opts.logger, fallbackAnnounced: false };
}

/**
 * The driver quotes a malformed URI whole in its message (`Invalid connection string "..."`), and
 * start-up failures are printed: the user-info part of any MongoDB URI, and the password given
 * apart from the URI, never reach the output.
 */
export function withoutCredentials(err: unknown, password?: string): unknown {
  if (!(err instanceof Error)) return err;
  const clean = (text: string) => redactCredentials(text, password);
  err.message = clean(err.message);
  if (err.stack) err.stack = clean(err.stack);
  return err;
}

/** `mongodb://user:pass@host` -> `mongodb://***@host` in any text; and the given password anywhere. */
export function redactCredentials(text: string, password?: string): string {
  const redacted = text.replace(/(mongodb(?:\+srv)?:\/\/)[^\s"']*@/g, '$1***@');
  return password ? redacted.split(password).join('***') : redacted;
}

/**
 * Transactions need sessions (`logicalSessionTimeoutMinutes`) and a replica-set member or mongos.
 * A standalone server or a wire-protocol stand-in answers `hello` without one of them.
 */
export async function supportsTransactions(conn: Connection): Promise<boolean> {
  const db = conn.db;
  if (!db) return false;
  const hello = (await db.admin().command({ isMaster: 1 })) as Record<string, unknown>;
  const sessions = typeof hello.logicalSessionTimeoutMinutes === 'number';
  const replicated = typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
  return sessions && replicated;
}

/**
 * Runs `fn` in a transaction when the server can; otherwise runs the same writes in order with no
 * session, and says so once in the log. Callers write so that a retry is safe either way (unique
 * indexes on ledgers, idempotency keys and outbox ids).
 */
export async function withTransaction<T>(
  db: MongoHandle,
  fn: (session: ClientSession | undefined) => Promise<T>,
): Promise<T> {
  if (!db.transactions) {
    if (!db.fallbackAnnounced) {
      db.fallbackAnnounced = true;
      db.logger.warn('transactions unavailable on this MongoDB server: running atomic writes in order');
    }
    return fn(undefined);
  }
  const session = await db.conn.startSession();
  try {
    let result: T | undefined;
    await session.withTransaction(async () => {
      result = await fn(session);
    });
    return result as T;
  } finally {
    await session.endSession();
  }
}

/** Builds the indexes a service's schemas declare (autoIndex is off, so this is the one place). */
export async function syncIndexes(conn: Connection): Promise<void> {
  for (const model of Object.values(conn.models)) {
    await model.createCollection().catch(ignoreExists);
    await model.createIndexes();
  }
}

function ignoreExists(err: unknown): void {
  if (!isNamespaceExists(err)) throw err;
}

/**
 * The collection exists already, typically because another process (or a first write) created it
 * at the same moment: NamespaceExists (48), or what mongo-java-server's H2 backend (the `make dev`
 * stand-in) answered to two racing creators, with no code, before tools/mongo-java-server made its
 * `create` atomic (issue 22): "Unknown error: Document with key 'db.coll' already existed in
 * H2Collection(db.system.namespaces)". Kept for a stand-in started from an older build.
 */
export function isNamespaceExists(err: unknown): boolean {
  const e = err as { code?: unknown; codeName?: unknown; message?: unknown } | undefined;
  if (e?.codeName === 'NamespaceExists' || e?.code === 48) return true;
  const message = typeof e?.message === 'string' ? e.message : '';
  return message.includes('already existed in') && message.includes('.system.namespaces)');
}

/** A readiness check: the server answers a ping within the check's timeout. */
export function mongoCheck(db: MongoHandle) {
  return async (): Promise<void> => {
    if (db.conn.readyState !== 1 || !db.conn.db) throw new Error('not connected');
    await db.conn.db.admin().command({ ping: 1 });
  };
}

/** True for E11000 on the given index key (or any key when omitted). */
export function isDuplicateKey(err: unknown, key?: string): boolean {
  const e = err as { code?: number; keyPattern?: Record<string, unknown>; message?: string };
  if (e?.code !== 11000) return false;
  if (!key) return true;
  if (e.keyPattern) return key in e.keyPattern;
  // Servers without keyPattern name the index (`index: phone_1 dup key: ...`); the duplicated
  // value follows it and must not be read as a key.
  const index = /index: (\S+) dup key/.exec(e.message ?? '')?.[1];
  return index !== undefined && `${index}_`.startsWith(`${key}_`);
}
