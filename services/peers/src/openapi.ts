import { openApiDocument, type DocumentBase, type JsonObject } from '../../kit/src/http/index.js';
import { bytesRouteDocs } from './documents/bytes-routes.js';
import { documentRoutes } from './documents/routes.js';
import { examRoutes } from './exams/routes.js';
import { portOf } from '../../registry.js';

export const DOCUMENT_PEER_NAME = 'peer-documents';
export const EXAM_PEER_NAME = 'peer-exams';
export const PEERS_VERSION = '0.1.0';

/** What the peers' one document says beside their routes: both services, the response shapes. */
const BASE: DocumentBase = {
  kit: {
    service: [DOCUMENT_PEER_NAME, EXAM_PEER_NAME],
  },
  info: {
    title: 'edu-platform local peers: document service and exam service',
    version: PEERS_VERSION,
    description:
      "Local stand-ins for two services outside the platform, implementing only the routes the document-import service calls, each storing into its own database: the document service (DOCUMENT_SERVICE_PORT, default 4008: /v1/storage/...) and the exam service (EXAM_SERVICE_PORT, default 4009: /v1/exams...). Both processes serve this one document; each answers only its own paths (the other's answer 404). Production points at the real services by URL.",
  },
  servers: [
    { url: `http://127.0.0.1:${portOf('peers')}`, description: 'document service' },
    { url: `http://127.0.0.1:${portOf('exam-peer')}`, description: 'exam service' },
  ],
  components: {
    schemas: {
      MediaAsset: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          key: { type: 'string' },
          organizationId: { type: 'string' },
          ownerId: { type: ['string', 'null'] },
          contentType: { type: 'string' },
          fileName: { type: 'string' },
          size: { type: 'integer' },
          contentUrl: { type: 'string' },
          createdAt: { type: 'string', format: 'date-time' },
        },
      },
      Exam: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          organizationId: { type: 'string' },
          createdBy: { type: ['string', 'null'] },
          title: { type: 'string' },
          subjectId: { type: ['string', 'null'] },
          gradeLevel: { type: ['integer', 'null'] },
          durationMinutes: { type: 'integer' },
          status: { const: 'DRAFT' },
          questionSnapshots: {
            type: 'array',
            items: { $ref: '#/components/schemas/QuestionSnapshot' },
          },
          snapshotsUpdatedAt: { type: ['string', 'null'] },
          createdAt: { type: 'string' },
        },
      },
    },
  },
};

/**
 * The peers' one OpenAPI document, generated from both route lists (and the byte-body routes'
 * documents): both processes serve it; each answers only its own paths.
 */
export function peersDocument(): JsonObject {
  return openApiDocument(BASE, [...documentRoutes, ...bytesRouteDocs, ...examRoutes]);
}
