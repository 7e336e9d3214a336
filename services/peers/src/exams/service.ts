import type { Express } from 'express';
import type { Model } from 'mongoose';
import { guardTokens } from '../../../kit/src/core/index.js';
import { syncIndexes } from '../../../kit/src/data/index.js';
import { createApp, routerFor } from '../../../kit/src/http/index.js';
import type { ServiceDefinition } from '../../../kit/src/service/index.js';
import { peerConfigSchema, type PeerConfig } from '../config.js';
import { EXAM_PEER_NAME, PEERS_VERSION, peersDocument } from '../openapi.js';
import { examModel, type ExamRow } from './models.js';
import { examRoutes } from './routes.js';

export { EXAM_PEER_NAME } from '../openapi.js';

export interface BuiltExamPeer {
  app: Express;
  Exam: Model<ExamRow>;
}

/** The local exam service: draft exams and their question snapshots, in its own database. */
export const examPeerService: ServiceDefinition<PeerConfig, BuiltExamPeer> = {
  name: EXAM_PEER_NAME,
  configSchema: peerConfigSchema,
  dbName: 'edu_peer_exams',
  async build({ config, logger, db, metrics, readiness, checks }) {
    const Exam = examModel(db.conn);
    const routes = routerFor(examRoutes, { Exam, conn: db.conn });
    await syncIndexes(db.conn);
    const app = createApp({
      name: EXAM_PEER_NAME,
      version: PEERS_VERSION,
      routes,
      checks,
      logger,
      metrics,
      openapi: peersDocument(),
      ...guardTokens(config),
      // What the DOCX workers' auto-approval calls (EXAM_DRAFT).
      workerRoutes: ['POST /v1/exams', 'PUT /v1/exams/:examId/question-snapshots'],
      readiness,
      bodyLimit: '10mb',
    });
    return { app, Exam };
  },
};
