import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { Express } from 'express';
import Joi from 'joi';
import { guardTokens } from '../../kit/src/core/index.js';
import { syncIndexes } from '../../kit/src/data/index.js';
import type { ServiceContext, ServiceDefinition } from '../../kit/src/service/index.js';
import { buildApp, SERVICE_NAME } from './app.js';
import { streamRegistry } from './routes/streams.js';
import { documentImportConfigSchema, sandboxOptions, type DocumentImportConfig } from './config.js';
import { configureParserSandbox } from './sandbox/index.js';
import type { ImportDeps } from './domain/deps.js';
import { approvalPort, baselinePort, documentPort, qasParser } from './domain/ports.js';
import { openJobs } from './domain/jobs/open.js';
import { recoverJobs } from './domain/jobs/recover.js';
import type { JobDeps } from './domain/jobs/types.js';

export interface ImportServiceConfig extends DocumentImportConfig {
  DOCX_IMPORT_SSE_HEARTBEAT_MS: number;
  /** Where uploads are spooled while their request lasts; size it UPLOAD_MAX_CONCURRENT x 50 MB. */
  UPLOAD_SPOOL_DIR: string;
  /** Uploads this process spools at once; one more is 503 UPLOADS_BUSY with Retry-After. */
  UPLOAD_MAX_CONCURRENT: number;
  /** Of those, what one caller (X-User-Id) and one organization may hold; one more is 429. 0: no cap. */
  UPLOAD_MAX_PER_CLIENT: number;
  UPLOAD_MAX_PER_ORGANIZATION: number;
  /** An upload's pace: UPLOAD_BODY_TIMEOUT_MS plus a second per UPLOAD_MIN_BYTES_PER_SECOND bytes, at most UPLOAD_IDLE_TIMEOUT_MS between chunks; else 408. */
  UPLOAD_BODY_TIMEOUT_MS: number;
  UPLOAD_MIN_BYTES_PER_SECOND: number;
  UPLOAD_IDLE_TIMEOUT_MS: number;
}

// The API's own keys (the workers share the rest of the schema).
const serviceConfigSchema = (documentImportConfigSchema as Joi.ObjectSchema).keys({
  DOCX_IMPORT_SSE_HEARTBEAT_MS: Joi.number().integer().min(100).max(120_000).default(15_000),
  UPLOAD_SPOOL_DIR: Joi.string().default(tmpdir()),
  UPLOAD_MAX_CONCURRENT: Joi.number().integer().min(1).max(64).default(4),
  // Shares of those slots: one teacher's (or one school's) trickling uploads leave the rest to others.
  UPLOAD_MAX_PER_CLIENT: Joi.number().integer().min(0).max(64).default(2),
  UPLOAD_MAX_PER_ORGANIZATION: Joi.number().integer().min(0).max(64).default(3),
  // Apache's mod_reqtimeout body=20,MinRate=…: a trickled upload frees its slot within seconds, not at the server's 300 s.
  UPLOAD_BODY_TIMEOUT_MS: Joi.number().integer().min(0).max(3_600_000).default(20_000),
  UPLOAD_MIN_BYTES_PER_SECOND: Joi.number().integer().min(0).max(1_000_000_000).default(1024),
  UPLOAD_IDLE_TIMEOUT_MS: Joi.number().integer().min(0).max(3_600_000).default(10_000),
}) as Joi.ObjectSchema<ImportServiceConfig>;

export interface BuiltImport {
  app: Express;
  deps: ImportDeps;
  jobs: JobDeps;
  beforeDrain: Array<() => void>;
  stoppers: Array<() => Promise<unknown>>;
}

async function assemble(ctx: ServiceContext<ImportServiceConfig>): Promise<BuiltImport> {
  const { config, logger, db, metrics, readiness, checks, bus } = ctx;
  configureParserSandbox(sandboxOptions(config));
  await mkdir(config.UPLOAD_SPOOL_DIR, { recursive: true });
  const opened = await openJobs({ config, db, bus, logger, metrics });
  const jobs = opened.deps;
  await syncIndexes(db.conn);
  // Jobs in flight when the last process stopped: re-enqueued, or FAILED when their payload is gone.
  const recovered = await recoverJobs(jobs);
  logger.info(recovered, 'import jobs recovered');
  const deps: ImportDeps = {
    logger,
    heartbeatMs: config.DOCX_IMPORT_SSE_HEARTBEAT_MS,
    uploadSpool: {
      dir: config.UPLOAD_SPOOL_DIR,
      maxConcurrent: config.UPLOAD_MAX_CONCURRENT,
      maxPerClient: config.UPLOAD_MAX_PER_CLIENT,
      maxPerOrganization: config.UPLOAD_MAX_PER_ORGANIZATION,
      pace: {
        graceMs: config.UPLOAD_BODY_TIMEOUT_MS,
        minBytesPerSecond: config.UPLOAD_MIN_BYTES_PER_SECOND,
        idleMs: config.UPLOAD_IDLE_TIMEOUT_MS,
      },
    },
    parseQas: qasParser(config),
    jobs,
    documents: documentPort(config),
    approve: approvalPort(config),
    baselineReparse: baselinePort,
    clock: () => new Date(),
  };
  const app = buildApp(deps, { metrics, readiness, checks, ...guardTokens(config) });
  return {
    app,
    deps,
    jobs,
    beforeDrain: [() => void streamRegistry(deps).closeAll()],
    stoppers: [() => opened.close()],
  };
}

/** The document-import service as the kit starts it: main.ts runs it, tests start it in-process. */
export const documentImportService: ServiceDefinition<ImportServiceConfig, BuiltImport> = {
  name: SERVICE_NAME,
  configSchema: serviceConfigSchema,
  build: assemble,
};
