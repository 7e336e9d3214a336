// One document-import service (with Kafka), its parser worker in-process and the local document
// service, on private topics, consumer group, spool directory and databases per test file.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestService, type TestService } from '../../../kit/test/support/harness.js';
import { testDbName, testMongoUri } from '../../../kit/test/support/servers.js';
import { startDocumentPeer, type BuiltDocumentPeer, type RunningPeer } from '../../../peers/src/index.js';
import { documentImportService, type BuiltImport, type ImportServiceConfig } from '../../src/service.js';
import { approvalPort } from '../../src/domain/ports.js';
import { startWorker, type RunningWorker } from '../../src/worker/worker.js';
import { headers, until, type Who } from './support.js';

export type ImportService = TestService<ImportServiceConfig, BuiltImport>;

export interface Stack {
  svc: ImportService;
  peer: RunningPeer<BuiltDocumentPeer>;
  worker: RunningWorker;
  spoolDir: string;
  pauseFile: string;
  spooled(): Promise<string[]>;
  close(): Promise<void>;
}

/** `autoApprove`: the worker approves as the worker process does (approvalPort of the service's config). */
export async function startStack(
  file: string,
  env: Record<string, string> = {},
  opts: { autoApprove?: boolean } = {},
): Promise<Stack> {
  const peer = await startDocumentPeer({
    mongoUri: testMongoUri(),
    dbName: testDbName('peer_docs', file),
    dropDatabaseOnClose: true,
  });
  const spoolDir = await mkdtemp(join(tmpdir(), 'di-spool-'));
  const pauseFile = join(spoolDir, '..', `di-pause-${randomUUID()}`);
  const tag = randomUUID().slice(0, 8);
  const svc = (await startTestService(documentImportService, {
    file,
    kafka: true,
    env: {
      DOCUMENT_SERVICE_URL: peer.url,
      DOCX_IMPORT_PAYLOAD_DIR: spoolDir,
      DOCX_IMPORT_TOPIC: `docx-import.jobs.t-${tag}`,
      DOCX_IMPORT_EVENTS_TOPIC: `docx-import.job-events.t-${tag}`,
      DOCX_IMPORT_CONSUMER_GROUP: `docx-parser-t-${tag}`,
      DOCX_IMPORT_LIVE_POLL_MS: '100',
      DOCX_IMPORT_SSE_HEARTBEAT_MS: '200',
      DOCX_WORKER_PAUSE_FILE: pauseFile,
      LOG_LEVEL: 'warn',
      ...env,
    },
  })) as ImportService;
  const worker = await startWorker({
    config: svc.config,
    db: svc.db,
    bus: svc.bus!,
    logger: svc.logger,
    ...(opts.autoApprove ? { approve: approvalPort(svc.config) } : {}),
  });
  return {
    svc,
    peer,
    worker,
    spoolDir,
    pauseFile,
    spooled: () => readdir(spoolDir, { recursive: true }).then((names) => names.filter((n) => n.endsWith('.docx'))),
    async close() {
      await worker.stop().catch(() => undefined);
      await svc.close();
      await peer.close();
      await rm(spoolDir, { recursive: true, force: true });
      await rm(pauseFile, { force: true });
    },
  };
}

/** Polls a job's status route until `status` (bounded). */
export async function waitForStatus(svc: ImportService, who: Who, id: string, status: string): Promise<void> {
  let last = '';
  await until(
    `job ${id} ${status} (last ${last})`,
    async () => {
      const res = await svc.request.get(`/v1/import/docx/jobs/${id}/status`).set(headers(who));
      last = String(res.body.data?.status);
      if (last === 'FAILED' && status !== 'FAILED') throw new Error(`job ${id} FAILED: ${JSON.stringify(res.body)}`);
      return last === status;
    },
    60_000,
  );
}

export interface OpenStream {
  events: Array<{ event: string; data: unknown; id?: string }>;
  text: () => string;
  status: number;
  close(): void;
}

/** Opens an event stream and collects its events as they arrive. */
export function openStream(url: string, path: string, who: Who): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${url}${path}`, { headers: headers(who) }, (res) => {
      let raw = '';
      const stream: OpenStream = {
        events: [],
        text: () => raw,
        status: res.statusCode ?? 0,
        close: () => req.destroy(),
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        raw += chunk;
        const blocks = raw.split('\n\n');
        stream.events = blocks.slice(0, -1).flatMap(parseBlock);
      });
      res.on('error', () => undefined);
      resolve(stream);
    });
    req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
  });
}

function parseBlock(block: string): Array<{ event: string; data: unknown; id?: string }> {
  const lines = block.split('\n');
  const event = lines.find((l) => l.startsWith('event: '));
  const data = lines.find((l) => l.startsWith('data: '));
  if (!event || !data) return [];
  const id = lines.find((l) => l.startsWith('id: '));
  return [{ event: event.slice(7), data: JSON.parse(data.slice(6)) as unknown, ...(id ? { id: id.slice(4) } : {}) }];
}
