import express, { type Express } from 'express';
import { guardTokens, errorMiddleware } from '../../../kit/src/core/index.js';
import { syncIndexes } from '../../../kit/src/data/index.js';
import { createApp, routerFor } from '../../../kit/src/http/index.js';
import type { ServiceDefinition } from '../../../kit/src/service/index.js';
import { MAX_OBJECT_BYTES, peerConfigSchema, type PeerConfig } from '../config.js';
import { bucketOf } from '../grid.js';
import { DOCUMENT_PEER_NAME, PEERS_VERSION, peersDocument } from '../openapi.js';
import { bytesRoutes } from './bytes-routes.js';
import { documentModels } from './models.js';
import { documentRoutes } from './routes.js';
import type { DocumentDeps } from './store.js';

export { DOCUMENT_PEER_NAME } from '../openapi.js';

export interface BuiltDocumentPeer {
  app: Express;
  deps: DocumentDeps;
}

/** What the DOCX workers call while materializing a document's media (the presigned PUT needs no token). */
const DOCUMENT_WORKER_ROUTES = [
  'GET /v1/storage/objects/content',
  'POST /v1/storage/presigned-upload',
  'POST /v1/storage/media-assets',
];

/** The local document service: stored objects and media assets in GridFS, in its own database. */
export const documentPeerService: ServiceDefinition<PeerConfig, BuiltDocumentPeer> = {
  name: DOCUMENT_PEER_NAME,
  configSchema: peerConfigSchema,
  dbName: 'edu_peer_documents',
  async build({ config, logger, db, metrics, readiness, checks }) {
    const deps: DocumentDeps = {
      models: documentModels(db.conn),
      bucket: bucketOf(db.conn),
      maxBytes: MAX_OBJECT_BYTES,
      clock: () => new Date(),
    };
    await syncIndexes(db.conn);
    const routes = routerFor(documentRoutes, deps);
    const kitApp = createApp({
      name: DOCUMENT_PEER_NAME,
      version: PEERS_VERSION,
      routes,
      checks,
      logger,
      metrics,
      openapi: peersDocument(),
      ...guardTokens(config),
      workerRoutes: DOCUMENT_WORKER_ROUTES,
      readiness,
    });
    // Byte bodies first (the kit's app refuses bodies that are not JSON or multipart), then the kit's app.
    const app = express();
    app.disable('x-powered-by');
    app.use(bytesRoutes(deps, guardTokens(config)));
    app.use(kitApp);
    app.use(errorMiddleware(logger));
    return { app, deps };
  },
};
