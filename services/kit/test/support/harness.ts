// Starts any service in-process the way main.ts does (startService), against the real test
// MongoDB with a database of its own per test file, optionally the real test Kafka, on port 0.
import type { Express } from 'express';
import supertest from 'supertest';
import type { CommonConfig, Logger } from '../../src/core/index.js';
import type { EventBus } from '../../src/bus/index.js';
import type { MongoHandle } from '../../src/data/index.js';
import { startService, type BuiltService, type ServiceDefinition } from '../../src/service/index.js';
import { LogCapture } from './log-capture.js';
import { testDbName, testKafkaBrokers, testMongoUri } from './servers.js';

export interface TestServiceOptions {
  /** The test file (`import.meta.url` or a name): the database is `testDbName(service, file)`. */
  file: string;
  /** Config on top of the test defaults (NODE_ENV=test, PORT=0, LOG_LEVEL=debug, the test MongoDB). */
  env?: Record<string, string>;
  /** Connect the real test Kafka (sets KAFKA_BROKERS); off by default. */
  kafka?: boolean;
}

export interface TestService<C, B> {
  /** `http://127.0.0.1:<port>` of the listening server. */
  url: string;
  app: Express;
  /** supertest bound to the listening server: `svc.request.get('/v1/...')`. No cookie jar. */
  request: ReturnType<typeof supertest>;
  config: Readonly<C>;
  built: B;
  db: MongoHandle;
  bus?: EventBus;
  logger: Logger;
  logs: LogCapture;
  /** Empties every model's collection (deleteMany keeps the unique indexes) and the captured logs. */
  clearCollections(): Promise<void>;
  /** Drops the test database, then shuts the service down as SIGTERM would. */
  close(): Promise<void>;
}

export async function startTestService<C extends CommonConfig, B extends BuiltService>(
  def: ServiceDefinition<C, B>,
  opts: TestServiceOptions,
): Promise<TestService<C, B>> {
  const dbName = testDbName(def.name, opts.file);
  const logs = new LogCapture();
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    PORT: '0',
    LOG_LEVEL: 'debug',
    MONGODB_URI: testMongoUri(),
    MONGODB_DB: dbName,
    ...(opts.kafka ? { KAFKA_BROKERS: testKafkaBrokers().join(',') } : {}),
    ...opts.env,
  };
  const running = await startService(
    { ...def, dbName },
    { env, host: '127.0.0.1', logDestination: logs, handleSignals: false },
  );
  // A test file that never closes its service must not keep mocha's process alive.
  running.server.unref();
  const url = `http://127.0.0.1:${running.port}`;
  return {
    url,
    app: running.built.app,
    request: supertest(url),
    config: running.config,
    built: running.built,
    db: running.db,
    bus: running.bus,
    logger: running.logger,
    logs,
    async clearCollections() {
      await Promise.all(Object.values(running.db.conn.models).map((m) => m.deleteMany({}).exec()));
      logs.lines.length = 0;
    },
    async close() {
      await running.db.conn.dropDatabase().catch(() => undefined);
      await running.shutdown('test finished');
    },
  };
}
