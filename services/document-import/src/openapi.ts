import { ref, serviceDocument, type JsonObject } from '../../kit/src/http/index.js';
import { portOf } from '../../registry.js';
import { JOB_VIEW_SCHEMAS } from './routes/job-views.js';
import { QAS_OUTPUT_SCHEMAS } from './routes/qas-output.js';
import { importRoutes } from './routes/index.js';

export const SERVICE_NAME = 'document-import';
export const SERVICE_VERSION = '0.1.0';

/** The busy or unavailable answer of an upload: an Error with Retry-After (the prose has the rest). */
const UPLOADS_BUSY: JsonObject = {
  UploadsBusyOrUnavailable: {
    description:
      "UPLOADS_BUSY: UPLOAD_MAX_CONCURRENT uploads are being spooled by this process; nothing was read; retry after Retry-After seconds (error.details.maxConcurrent). DOCX_PARSER_BUSY: the parse sandbox's queue is full (Retry-After). DEPENDENCY_UNAVAILABLE: MongoDB, Kafka or a peer service is unreachable, or the service is shutting down.",
    headers: {
      'Retry-After': {
        description: 'Seconds to wait (UPLOADS_BUSY, DOCX_PARSER_BUSY).',
        schema: { type: 'string', pattern: '^[0-9]+$' },
      },
    },
    content: { 'application/json': { schema: ref('schemas', 'Error') } },
  },
};

/**
 * The document-import service's OpenAPI document: its routes' declarations, document.json and
 * decisions.json, and the response shapes (the QAS output that the parser's tests and
 * docx-file.ts read by name).
 */
export const importDocument = serviceDocument(
  { service: SERVICE_NAME, version: SERVICE_VERSION, port: portOf(SERVICE_NAME), from: import.meta.url },
  { responses: UPLOADS_BUSY, schemas: { ...QAS_OUTPUT_SCHEMAS, ...JOB_VIEW_SCHEMAS } },
  importRoutes,
);
