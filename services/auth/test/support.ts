import type { Express } from 'express';
import {
  connectMongo,
  createLogger,
  createMetricsRegistry,
  loadConfig,
  type MongoHandle,
} from '../../kit/src/index.js';
import { LogCapture } from '../../kit/test/support/log-capture.js';
import { testDbName, testMongoUri } from '../../kit/test/support/servers.js';
import { buildApp } from '../src/app.js';
import { authConfigSchema, type AuthConfig } from '../src/config.js';
import type { AuthDeps } from '../src/domain/deps.js';
import { createAuthDeps } from '../src/wiring.js';

export interface TestAuth {
  app: Express;
  deps: AuthDeps;
  db: MongoHandle;
  config: AuthConfig;
  logs: LogCapture;
  clear(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The real auth app on the real test MongoDB, its own database per test file. bcrypt cost 4 keeps
 * tests quick; the benchmark measures the production cost.
 */
export async function startAuth(file: string, env: Record<string, string> = {}): Promise<TestAuth> {
  const config = loadConfig(authConfigSchema, {
    NODE_ENV: 'test',
    MONGODB_URI: testMongoUri(),
    MONGODB_DB: testDbName('auth', file),
    AUTH_BCRYPT_COST: '4',
    AUTH_TOKEN_BCRYPT_COST: '4',
    LOG_LEVEL: 'debug',
    ...env,
  });
  const logs = new LogCapture();
  const logger = createLogger({ name: 'auth', level: config.LOG_LEVEL, destination: logs });
  const db = await connectMongo({ uri: config.MONGODB_URI, dbName: config.MONGODB_DB, logger });
  const registry = createMetricsRegistry();
  const deps = await createAuthDeps(db, config, logger, registry);
  const app = buildApp(deps, {
    metrics: registry,
    internalToken: config.INTERNAL_API_TOKEN,
    trustProxy: config.TRUST_PROXY,
  });
  return {
    app,
    deps,
    db,
    config,
    logs,
    async clear() {
      // deleteMany, not drop: the unique indexes the rules rely on must survive between tests.
      await Promise.all(
        Object.values(deps.models).map((m: { deleteMany: (f: object) => { exec(): Promise<unknown> } }) =>
          m.deleteMany({}).exec(),
        ),
      );
      logs.lines.length = 0;
    },
    async close() {
      await db.conn.dropDatabase().catch(() => undefined);
      await db.conn.close();
    },
  };
}

let counter = 0;

/** A fresh, valid registration body; override any field. */
export function newUser(over: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  return {
    email: `student${counter}.${process.pid}@thpt-example.edu.vn`,
    password: 'Mật-khẩu-đủ-dài-1',
    fullName: 'Nguyễn Văn An',
    ...over,
  };
}
