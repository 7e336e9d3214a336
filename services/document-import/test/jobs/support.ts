// Shared by the jobs and worker tests: a config of their own (database, topics, group, spool
// directory), generated DOCX files, and worker child processes started the way the chart runs them.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { createLogger, loadConfig } from '../../../kit/src/core/index.js';
import { createKafkaBus, type EventBus, type PlatformEvent } from '../../../kit/src/bus/index.js';
import { connectMongo, type MongoHandle, outboxModels } from '../../../kit/src/data/index.js';
import { testDbName, testKafkaBrokers, testMongoUri } from '../../../kit/test/support/servers.js';
import { documentImportConfigSchema, type DocumentImportConfig } from '../../src/config.js';
import { makeDocx } from '../parser/support/build-docx.js';
import { openJobs, type OpenJobs } from '../../src/domain/jobs/open.js';

export const SCOPE = { organizationId: 'org-1', actorId: 'teacher-1' };

export interface TestSetup {
  env: Record<string, string>;
  config: DocumentImportConfig;
}

/** A config with its own database, topics, group and spool directory (`env` is what a child gets). */
export function testSetup(file: string, extra: Record<string, string> = {}): TestSetup {
  const id = randomUUID().slice(0, 8);
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    MONGODB_URI: testMongoUri(),
    MONGODB_DB: testDbName('docximport', `${file}-${id}`),
    KAFKA_BROKERS: testKafkaBrokers().join(','),
    DOCX_IMPORT_TOPIC: `docx-import.jobs.v1.t-${id}`,
    DOCX_IMPORT_EVENTS_TOPIC: `docx-import.job-events.v1.t-${id}`,
    DOCX_IMPORT_CONSUMER_GROUP: `docx-parser-t-${id}`,
    DOCX_IMPORT_PAYLOAD_DIR: mkdtempSync(join(tmpdir(), 'docx-spool-')),
    DOCX_IMPORT_LIVE_POLL_MS: '100',
    DOCX_WORKER_LEASE_MS: '2000',
    DOCX_WORKER_SESSION_TIMEOUT_MS: '6000',
    // Any free port: several workers of a test share this machine (a pod has 8081 to itself).
    WORKER_HEALTH_PORT: '0',
    ...extra,
  };
  return { env, config: loadConfig(documentImportConfigSchema, env) };
}

export async function connect(config: DocumentImportConfig): Promise<MongoHandle> {
  return connectMongo({
    uri: config.MONGODB_URI,
    dbName: config.MONGODB_DB,
    logger: createLogger({ name: 'docx-test', level: 'silent' }),
  });
}

export const quietLogger = () => createLogger({ name: 'docx-test', level: 'silent' });

/** The test's database, a plain bus on its brokers and the job deps over both (what a worker process shares with the test). */
export async function testJobs(setup: TestSetup): Promise<{ db: MongoHandle; bus: EventBus; jobs: OpenJobs }> {
  const db = await connect(setup.config);
  const bus = createKafkaBus({
    brokers: setup.config.KAFKA_BROKERS!.split(','),
    clientId: 'docx-test',
    logger: quietLogger(),
  });
  const jobs = await openJobs({ config: setup.config, db, bus, logger: quietLogger() });
  return { db, bus, jobs };
}

/** A real DOCX with `n` numbered questions, each with four options and an answer line. */
export async function questionsDocx(n: number): Promise<Buffer> {
  const blocks: string[] = [];
  for (let i = 1; i <= n; i++) {
    blocks.push(`Câu ${i}. Giá trị của ${i} + ${i} là bao nhiêu?`);
    blocks.push(`A. ${2 * i}\tB. ${2 * i + 1}\tC. ${2 * i + 2}\tD. ${2 * i + 3}`);
    blocks.push('Đáp án: A');
  }
  return Buffer.from(await makeDocx(blocks));
}

/** A DOCX whose document.xml declares a DOCTYPE with entities (the parser refuses it). */
export function entityExpansionDocx(): Buffer {
  const xml =
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>' +
    '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>&lol2;</w:t></w:r></w:p></w:body></w:document>';
  return Buffer.from(
    zipSync({
      '[Content_Types].xml': strToU8('<?xml version="1.0"?><Types xmlns="x"/>'),
      'word/document.xml': strToU8(xml),
    }),
  );
}

/** A small ZIP whose document.xml inflates past the parser's ratio limit. */
export function zipBombDocx(): Buffer {
  const zeros = new Uint8Array(20 * 1024 * 1024);
  return Buffer.from(
    zipSync(
      { '[Content_Types].xml': strToU8('<?xml version="1.0"?><Types xmlns="x"/>'), 'word/document.xml': zeros },
      { level: 9 },
    ),
  );
}

export interface WorkerProcess {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code (or signal name). */
  exited: Promise<number | string>;
}

/** `node --import tsx services/cli.ts docx-worker` with the test's environment. */
export function startWorkerProcess(env: Record<string, string>): WorkerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/cli.ts', 'docx-worker'], {
    cwd: new URL('../../../../', import.meta.url).pathname,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  return { child, output: () => out, exited };
}

export async function stopWorker(w: WorkerProcess): Promise<void> {
  if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGTERM');
  await w.exited;
}

/** The envelopes the outbox holds for a topic (pending or published), oldest first. */
export async function outboxEvents(db: MongoHandle, topic: string): Promise<PlatformEvent<Record<string, unknown>>[]> {
  const { Entry, Published } = outboxModels(db.conn);
  const rows = [...(await Entry.find({ topic }).lean()), ...(await Published.find({ topic }).lean())];
  return rows
    .sort((a, b) => a.seq - b.seq)
    .map((r) => JSON.parse(r.envelope) as PlatformEvent<Record<string, unknown>>);
}
