import { expect } from 'chai';
import { Registry } from 'prom-client';
import { Writable } from 'node:stream';
import { createLogger } from '../../../kit/src/core/index.js';
import type { MongoHandle } from '../../../kit/src/data/index.js';
import type { DocumentImportConfig } from '../../src/config.js';
import { failJob } from '../../src/domain/jobs/recover.js';
import { writeJob } from '../../src/domain/jobs/write.js';
import type { ImportJobRow } from '../../src/store/job-models.js';
import { connect, questionsDocx, quietLogger, SCOPE, testSetup } from './support.js';
import { openJobs, type OpenJobs } from '../../src/domain/jobs/open.js';
import { submitJob } from '../../src/domain/jobs/submit.js';

const FAILURE = { code: 'DOCX_IMPORT_PARSE_FAILED', message: 'The document could not be parsed' };

/** The value of `name` (with `status` when given) in the exposition text; undefined when absent. */
function sample(text: string, name: string, status?: string): number | undefined {
  const head = status === undefined ? `${name} ` : `${name}{status="${status}"} `;
  const line = text.split('\n').find((l) => l.startsWith(head));
  return line === undefined ? undefined : Number(line.slice(head.length));
}

describe('document-import job gauges (MongoDB, scraped registry)', () => {
  let config: DocumentImportConfig;
  let db: MongoHandle;
  let jobs: OpenJobs;
  let registry: Registry;
  let docx: Buffer;

  before(async () => {
    config = testSetup(import.meta.url, { OUTBOX_PUBLISHER: 'none' }).config;
    db = await connect(config);
    registry = new Registry();
    jobs = await openJobs({ config, db, logger: quietLogger(), metrics: registry });
    docx = await questionsDocx(2);
  });
  after(async () => {
    await jobs.close();
    await db.conn.dropDatabase();
    await db.conn.close();
  });

  const upload = async (): Promise<ImportJobRow> => {
    const { job } = await submitJob(jobs.deps, SCOPE, {
      source: { bytes: docx },
      fileName: 'de-thi.docx',
      jobKind: 'QAS',
      jobSource: 'UPLOAD',
    });
    return (await jobs.deps.store.models.ImportJob.findById(job.id).lean<ImportJobRow>().exec())!;
  };

  it('reports every status (0 when none) and the jobs failed in the last 15 minutes', async () => {
    const empty = await registry.metrics();
    for (const status of ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED']) {
      expect(sample(empty, 'docx_import_jobs', status), status).to.equal(0);
    }
    expect(sample(empty, 'docx_import_jobs_failed_recent')).to.equal(0);

    const ctx = jobs.deps;
    const pending = await upload();
    const processing = await upload();
    const completed = await upload();
    const failedNow = await upload();
    const failedLongAgo = await upload();
    expect(pending.status).to.equal('PENDING');
    await writeJob(ctx, { id: processing._id }, { set: { status: 'PROCESSING', startedAt: new Date() } });
    await writeJob(ctx, { id: completed._id }, { set: { status: 'COMPLETED', completedAt: new Date() } });
    // FAILED the way the worker and recovery do it; one of them 20 minutes ago (outside the window).
    expect(await failJob(ctx, failedNow, FAILURE)).to.not.equal(null);
    const twentyMinutesAgo = new Date(Date.now() - 20 * 60_000);
    expect(await failJob({ ...ctx, clock: () => twentyMinutesAgo }, failedLongAgo, FAILURE)).to.not.equal(null);

    const text = await registry.metrics();
    expect(sample(text, 'docx_import_jobs', 'PENDING')).to.equal(1);
    expect(sample(text, 'docx_import_jobs', 'PROCESSING')).to.equal(1);
    expect(sample(text, 'docx_import_jobs', 'COMPLETED')).to.equal(1);
    expect(sample(text, 'docx_import_jobs', 'FAILED')).to.equal(2);
    expect(sample(text, 'docx_import_jobs_failed_recent')).to.equal(1);
  });

  it('keeps the last values and logs at debug when MongoDB fails, without failing /metrics', async () => {
    const own = await connect(config);
    let logged = '';
    const logger = createLogger({
      name: 'docx-test',
      level: 'debug',
      destination: new Writable({ write: (chunk: Buffer, _enc, done) => void ((logged += chunk.toString()), done()) }),
    });
    const ownRegistry = new Registry();
    const ownJobs = await openJobs({ config, db: own, logger, metrics: ownRegistry });
    try {
      const before = await ownRegistry.metrics();
      const failed = sample(before, 'docx_import_jobs', 'FAILED');
      expect(failed).to.be.greaterThan(0);
      await own.conn.close(true);
      const after = await ownRegistry.metrics();
      expect(sample(after, 'docx_import_jobs', 'FAILED')).to.equal(failed);
      expect(sample(after, 'docx_import_jobs_failed_recent')).to.equal(
        sample(before, 'docx_import_jobs_failed_recent'),
      );
      expect(logged).to.contain('docx import job gauge not refreshed');
      expect(logged).to.contain('"level":20');
    } finally {
      await ownJobs.close();
    }
  });
});
