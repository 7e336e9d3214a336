import type { Express } from 'express';
import Joi from 'joi';
import {
  commonConfig,
  StreamRegistry,
  syncIndexes,
  type CommonConfig,
  type ServiceDefinition,
} from '../../kit/src/index.js';
import { buildApp, SERVICE_NAME } from './app.js';
import type { ImportDeps } from './domain/deps.js';
import { parseDocx } from './parser/index.js';

interface ImportConfig extends CommonConfig {
  MONGODB_DB: string;
}

const importConfigSchema = Joi.object<ImportConfig>({
  ...commonConfig,
  PORT: Joi.number().port().default(4007),
  MONGODB_DB: Joi.string()
    .pattern(/^[A-Za-z0-9_-]{1,63}$/)
    .default('edu_document_import'),
});

export interface BuiltImport {
  app: Express;
  deps: ImportDeps;
  beforeDrain: Array<() => void>;
  stoppers: Array<() => Promise<unknown>>;
}

/** The document-import service as the kit starts it: main.ts runs it, tests start it in-process. */
export const documentImportService: ServiceDefinition<ImportConfig, BuiltImport> = {
  name: SERVICE_NAME,
  configSchema: importConfigSchema,
  async build({ config, logger, db, metrics, readiness, checks }) {
    await syncIndexes(db.conn);
    const streams = new StreamRegistry();
    const deps: ImportDeps = { logger, streams, parseQas: (bytes) => Promise.resolve(parseDocx(bytes)) };
    const app = buildApp(deps, { metrics, readiness, checks, internalToken: config.INTERNAL_API_TOKEN });
    return { app, deps, beforeDrain: [() => void streams.closeAll()], stoppers: [] };
  },
};
