// A permanent-delete job outlives the instance that ran it: stopped mid-job (SIGTERM path: the job
// is handed back) or killed (SIGKILL: its lease lapses), a new instance on the same database
// resumes it to completion; it never stays running.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { expect } from 'chai';
import { MongoClient, type Db } from 'mongodb';
import { startService, type RunningService } from '../../kit/src/service/index.js';
import { LogCapture } from '../../kit/test/support/log-capture.js';
import { testDbName, testMongoUri } from '../../kit/test/support/servers.js';
import type { QuestionBankConfig } from '../src/config.js';
import { questionBankService, type BuiltQuestionBank } from '../src/service.js';
import type { DeletionJobRow } from '../src/store/deletion-models.js';
import { liveCount, seedQuestions, waitFor, writer } from './deletion-fixtures.js';
import { headers, teacher } from './support.js';

type Instance = RunningService<QuestionBankConfig, BuiltQuestionBank>;
const DB = testDbName('question-bank', import.meta.url);
const JOBS = '/v1/questions/permanent-delete/jobs';

const start = (): Promise<Instance> =>
  startService(
    { ...questionBankService, dbName: DB },
    {
      env: { NODE_ENV: 'test', PORT: '0', LOG_LEVEL: 'warn', MONGODB_URI: testMongoUri(), MONGODB_DB: DB },
      host: '127.0.0.1',
      logDestination: new LogCapture(),
      handleSignals: false,
    },
  );

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function createJob(base: string, body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${base}${JOBS}`, {
    method: 'POST',
    headers: { ...headers(teacher()), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).to.equal(202);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

describe('question bank: permanent-delete jobs across restarts', function () {
  this.timeout(300_000);
  let client: MongoClient;
  let db: Db;
  let instance: Instance | undefined;
  let child: ChildProcess | undefined;
  const jobRow = (id: string) => db.collection<DeletionJobRow>('question_delete_jobs').findOne({ _id: id });

  before(async () => {
    client = await MongoClient.connect(testMongoUri());
    db = client.db(DB);
  });
  afterEach(async () => {
    child?.kill('SIGKILL');
    await instance?.shutdown('test finished');
    instance = undefined;
  });
  after(async () => {
    await db.dropDatabase();
    await client.close();
  });

  it('an instance stopped mid-job hands the job back, and the next instance resumes it to completion', async () => {
    instance = await start();
    const ids = await seedQuestions(db, writer(), 600);
    const id = await createJob(`http://127.0.0.1:${instance.port}`, { mode: 'all' });
    await waitFor(
      () => jobRow(id),
      (r) => (r?.processedQuestions ?? 0) > 0,
    );
    await instance!.shutdown('stopped mid-job');
    instance = undefined;
    const handedBack = (await jobRow(id))!;
    expect(handedBack).to.include({ status: 'pending', phase: 'interrupted', leaseOwner: null });
    expect(handedBack.processedQuestions).to.be.below(600);

    instance = await start();
    const done = (await waitFor(
      () => jobRow(id),
      (r) => r?.status !== 'pending' && r?.status !== 'running',
      240_000,
    ))!;
    expect(done).to.include({ status: 'completed', deletedCount: 600, processedQuestions: 600, attempts: 2 });
    expect(done.warnings.map((w) => w.code)).to.include('JOB_RESUMED');
    expect(await liveCount(db, ids)).to.equal(0);
  });

  it('a killed instance leaves a running job whose lease lapses; a new instance resumes it to completion', async () => {
    const port = await freePort();
    child = spawn(process.execPath, ['--import', 'tsx', 'services/question-bank/src/main.ts'], {
      env: { ...process.env, PORT: String(port), MONGODB_URI: testMongoUri(), MONGODB_DB: DB, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const base = `http://127.0.0.1:${port}`;
    await waitFor(
      () =>
        fetch(`${base}/readyz`).then(
          (r) => r.ok,
          () => false,
        ),
      (ok) => ok,
    );
    const ids = await seedQuestions(db, writer(), 600);
    const id = await createJob(base, { mode: 'all' });
    await waitFor(
      () => jobRow(id),
      (r) => (r?.processedQuestions ?? 0) > 0,
    );
    child.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));
    const orphan = (await jobRow(id))!;
    expect(orphan.status).to.equal('running');
    expect(orphan.leaseOwner).to.be.a('string');
    expect(orphan.processedQuestions).to.be.below(600);

    instance = await start();
    const done = (await waitFor(
      () => jobRow(id),
      (r) => r?.status !== 'pending' && r?.status !== 'running',
      240_000,
    ))!;
    expect(done).to.include({ status: 'completed', attempts: 2 });
    // Rows the killed instance removed after its last recorded batch are gone but not counted.
    expect(done.deletedCount).to.be.within(orphan.deletedCount + 1, 600);
    expect(done.leaseOwner).to.not.equal(orphan.leaseOwner);
    expect(done.warnings.map((w) => w.code)).to.include('JOB_RESUMED');
    expect(await liveCount(db, ids)).to.equal(0);
  });
});
