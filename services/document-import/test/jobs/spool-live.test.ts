import { expect } from 'chai';
import type { MongoHandle } from '../../../kit/src/data/index.js';
import { waitFor } from '../../../kit/test/support/kafka-helpers.js';
import { directorySpool, gridFsSpool, type PayloadSpool } from '../../src/store/spool.js';
import { jobModels } from '../../src/store/job-models.js';
import { connect, questionsDocx, quietLogger, SCOPE, testSetup } from './support.js';
import { openJobs } from '../../src/domain/jobs/open.js';
import { submitJob } from '../../src/domain/jobs/submit.js';
import type { JobUpdate } from '../../src/domain/jobs/types.js';

describe('document-import payload spools and live job updates', () => {
  let db: MongoHandle;
  // In before(): the test servers' addresses exist only once the root hooks have run.
  let setup: ReturnType<typeof testSetup>;

  before(async () => {
    setup = testSetup(import.meta.url, { OUTBOX_PUBLISHER: 'none', DOCX_IMPORT_PAYLOAD_STORE: 'gridfs' });
    db = await connect(setup.config);
  });
  after(async () => {
    await db.conn.dropDatabase();
    await db.conn.close();
  });

  const roundTrip = async (spool: PayloadSpool) => {
    const bytes = await questionsDocx(1);
    const ref = await spool.put('job-1-r1.docx', { bytes });
    expect(ref).to.include({ store: spool.store, sizeBytes: bytes.length });
    expect(await spool.exists(ref)).to.equal(true);
    expect((await spool.read(ref))!.equals(bytes)).to.equal(true);
    await spool.remove(ref);
    await spool.remove(ref);
    expect(await spool.exists(ref)).to.equal(false);
    expect(await spool.read(ref)).to.equal(null);
  };

  it('directory spool: put, read, remove (twice), then the payload reads as missing', async () => {
    await roundTrip(directorySpool(setup.config.DOCX_IMPORT_PAYLOAD_DIR));
  });

  it('GridFS spool: put, read, remove (twice), then the payload reads as missing', async () => {
    await roundTrip(gridFsSpool(db.conn));
  });

  it('refuses a payload name that could leave the spool directory', async () => {
    const err = await directorySpool(setup.config.DOCX_IMPORT_PAYLOAD_DIR)
      .put('../escape.docx', { bytes: Buffer.from('x') })
      .catch((e: unknown) => e);
    expect(err).to.be.instanceOf(Error);
  });

  it('delivers job.updated for a change written by another process (polled), summary only', async () => {
    const jobs = await openJobs({ config: setup.config, db, logger: quietLogger() });
    try {
      const { job } = await submitJob(jobs.deps, SCOPE, {
        source: { bytes: await questionsDocx(1) },
        fileName: 'live.docx',
        jobKind: 'QAS',
        jobSource: 'UPLOAD',
      });
      expect(jobs.deps.store.spool.store).to.equal('gridfs');
      const seen: JobUpdate[] = [];
      const unsubscribe = jobs.deps.live.subscribe(job.id, (u) => seen.push(u));
      // Written straight to MongoDB, as a worker process would: nothing in this process knows.
      await jobModels(db.conn).ImportJob.updateOne(
        { _id: job.id },
        { $set: { status: 'PROCESSING', updatedAt: new Date(Date.now() + 1000) } },
      );
      const update = await waitFor('a live update', () => seen.find((u) => u.job.status === 'PROCESSING'), 20_000);
      unsubscribe();
      expect(update!.type).to.equal('job.updated');
      expect(update!.job.queue).to.include({ status: 'ACTIVE', active: 1 });
      expect(JSON.stringify(update)).not.to.match(/payloadRef|parseResultJson|gridfs/);
    } finally {
      await jobs.close();
    }
  });
});
