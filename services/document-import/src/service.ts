import type { Express } from 'express';
import Joi from 'joi';
import { AppError, StreamRegistry, syncIndexes, type ServiceDefinition } from '../../kit/src/index.js';
import { buildApp, SERVICE_NAME } from './app.js';
import { documentImportConfigSchema, type DocumentImportConfig } from './config.js';
import type { DocumentPort, ImportDeps } from './domain/deps.js';
import { DocumentClient } from './integrations/document-client.js';
import { createJobEngine, type JobEngine } from './jobs/engine.js';
import { parseDocx } from './parser/index.js';

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

const unavailable = (what: string) => () => {
  throw new AppError('DEPENDENCY_UNAVAILABLE', `${what} is not configured`);
};

function documentPort(config: ImportServiceConfig): DocumentPort {
  if (!config.DOCUMENT_SERVICE_URL) {
    return { fetchFile: unavailable('The document service'), openAsset: unavailable('The document service') };
  }
  const client = new DocumentClient({ baseUrl: config.DOCUMENT_SERVICE_URL, internalToken: config.INTERNAL_API_TOKEN });
  return {
    fetchFile: async (s, key) => (await client.fetchObject(key, s)).bytes,
    openAsset: (s, id) => client.openMediaContent(id, s),
  };
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
      parseQas: (bytes) => Promise.resolve(parseDocx(bytes)),
      engine,
      documents: documentPort(config),
      approve: unavailable('Approval'),
      baselineReparse: unavailable('The baseline reparse'),
      clock: () => new Date(),
    };
    const app = buildApp(deps, { metrics, readiness, checks, internalToken: config.INTERNAL_API_TOKEN });
    return { app, deps, engine, beforeDrain: [() => void streams.closeAll()], stoppers: [() => engine.close()] };
  },
};
