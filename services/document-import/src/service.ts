import type { Express } from 'express';
import Joi from 'joi';
import { StreamRegistry, syncIndexes, type ServiceDefinition } from '../../kit/src/index.js';
import { buildApp, SERVICE_NAME } from './app.js';
import { documentImportConfigSchema, type DocumentImportConfig } from './config.js';
import type { ImportDeps } from './domain/deps.js';
import { approvalPort, baselinePort, documentPort, qasParser } from './domain/ports.js';
import { createJobEngine, type JobEngine } from './jobs/engine.js';

export interface ImportServiceConfig extends DocumentImportConfig {
  DOCX_IMPORT_SSE_HEARTBEAT_MS: number;
}

// The stream heartbeat is the API's alone (the workers share the rest of the schema).
const serviceConfigSchema = (documentImportConfigSchema as Joi.ObjectSchema).keys({
  DOCX_IMPORT_SSE_HEARTBEAT_MS: Joi.number().integer().min(100).max(120_000).default(15_000),
}) as Joi.ObjectSchema<ImportServiceConfig>;

export interface BuiltImport {
  app: Express;
  deps: ImportDeps;
  engine: JobEngine;
  beforeDrain: Array<() => void>;
  stoppers: Array<() => Promise<unknown>>;
}

/** The document-import service as the kit starts it: main.ts runs it, tests start it in-process. */
export const documentImportService: ServiceDefinition<ImportServiceConfig, BuiltImport> = {
  name: SERVICE_NAME,
  configSchema: serviceConfigSchema,
  async build({ config, logger, db, metrics, readiness, checks, bus }) {
    const engine = await createJobEngine({ config, db, bus, logger, metrics });
    await syncIndexes(db.conn);
    const recovered = await engine.recover();
    logger.info(recovered, 'import jobs recovered');
    const streams = new StreamRegistry();
    const deps: ImportDeps = {
      logger,
      streams,
      heartbeatMs: config.DOCX_IMPORT_SSE_HEARTBEAT_MS,
      parseQas: qasParser(config),
      engine,
      documents: documentPort(config),
      approve: approvalPort(config),
      baselineReparse: baselinePort,
      clock: () => new Date(),
    };
    const app = buildApp(deps, { metrics, readiness, checks, internalToken: config.INTERNAL_API_TOKEN });
    return { app, deps, engine, beforeDrain: [() => void streams.closeAll()], stoppers: [() => engine.close()] };
  },
};
