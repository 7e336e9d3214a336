import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../../../kit/src/service/index.js';
import { startTestService } from '../../../kit/test/support/harness.js';
import { LogCapture } from '../../../kit/test/support/log-capture.js';
import { testDbName, testKafkaBrokers, testMongoUri } from '../../../kit/test/support/servers.js';
import { documentImportService, type BuiltImport, type ImportServiceConfig } from '../../src/service.js';
import { startWorker } from '../../src/worker/worker.js';
import { headers, simpleDocx, teacher, until } from './support.js';
import type { ImportService } from './stack.js';

describe('document-import: service start recovers the jobs in flight', () => {
  let spoolDir: string;
  let env: Record<string, string>;
  before(async () => {
    spoolDir = await mkdtemp(join(tmpdir(), 'di-restart-'));
    const tag = randomUUID().slice(0, 8);
    env = {
      DOCX_IMPORT_PAYLOAD_DIR: spoolDir,
      DOCX_IMPORT_TOPIC: `docx-import.jobs.r-${tag}`,
      DOCX_IMPORT_EVENTS_TOPIC: `docx-import.job-events.r-${tag}`,
      DOCX_IMPORT_CONSUMER_GROUP: `docx-parser-r-${tag}`,
      LOG_LEVEL: 'warn',
    };
  });
  after(() => rm(spoolDir, { recursive: true, force: true }));

  it('fails a PENDING job whose payload is gone with DOCX_IMPORT_PAYLOAD_MISSING and runs the other to completion', async () => {
    const docx = await simpleDocx();
    // The first process: jobs queued, no worker, then stopped (its database kept).
    const first = await startService<ImportServiceConfig, BuiltImport>(
      { ...documentImportService, dbName: testDbName(documentImportService.name, import.meta.url) },
      {
        env: {
          ...env,
          NODE_ENV: 'test',
          PORT: '0',
          MONGODB_URI: testMongoUri(),
          MONGODB_DB: testDbName(documentImportService.name, import.meta.url),
          KAFKA_BROKERS: testKafkaBrokers().join(','),
        },
        host: '127.0.0.1',
        handleSignals: false,
        logDestination: new LogCapture(),
      },
    );
    const url = `http://127.0.0.1:${first.port}/v1/import/docx/qas/jobs`;
    const submit = async () => {
      const form = new FormData();
      form.append('file', new Blob([docx]), 'de-thi.docx');
      const res = await fetch(url, { method: 'POST', body: form, headers: headers(teacher()) });
      expect(res.status).to.equal(202);
      return ((await res.json()) as { data: { id: string } }).data.id;
    };
    const lost = await submit();
    const kept = await submit();
    const spooled = (await readdir(spoolDir, { recursive: true })).filter((n) => n.includes(lost));
    expect(spooled).to.have.length(1);
    await rm(join(spoolDir, spooled[0]!));
    await first.shutdown('restart test');

    // The second process on the same database: recover() at start.
    const svc = (await startTestService(documentImportService, {
      file: import.meta.url,
      kafka: true,
      env,
    })) as ImportService;
    const worker = await startWorker({ config: svc.config, db: svc.db, bus: svc.bus!, logger: svc.logger });
    try {
      const job = async (id: string) =>
        (await svc.request.get(`/v1/import/docx/jobs/${id}`).set(headers(teacher()))).body.data;
      const failed = await job(lost);
      expect(failed.status).to.equal('FAILED');
      expect(failed.errorSummary.code).to.equal('DOCX_IMPORT_PAYLOAD_MISSING');
      await until('the kept job completes', async () => (await job(kept)).status === 'COMPLETED', 60_000);
      expect((await job(kept)).parseResultJson.questions).to.have.length(2);
    } finally {
      await worker.stop();
      await svc.close();
    }
  });
});
