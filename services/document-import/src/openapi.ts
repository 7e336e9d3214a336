import { ref, serviceDocument, type JsonObject } from '../../kit/src/http/index.js';
import { portOf } from '../../registry.js';
import { JOB_VIEW_SCHEMAS } from './routes/job-views.js';
import { QAS_OUTPUT_SCHEMAS } from './routes/qas-output.js';
import { importRoutes } from './routes/index.js';

export const SERVICE_NAME = 'document-import';
export const SERVICE_VERSION = '0.1.0';

/** An upload's refusals of its own: busy or unavailable, past a share, too slow (the prose has the rest). */
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
  UploadShareExceeded: {
    description:
      "RATE_LIMITED: the caller (X-User-Id) already spools UPLOAD_MAX_PER_CLIENT uploads on this process (error.details.reason UPLOADS_PER_CLIENT), or its organization UPLOAD_MAX_PER_ORGANIZATION (UPLOADS_PER_ORGANIZATION); error.details.max is the share; nothing was read; retry after Retry-After seconds. One client's or one school's uploads never take every slot.",
    headers: {
      'Retry-After': { description: 'Seconds to wait.', schema: { type: 'string', pattern: '^[0-9]+$' } },
    },
    content: { 'application/json': { schema: ref('schemas', 'Error') } },
  },
  UploadTooSlow: {
    description:
      'REQUEST_TIMEOUT: the upload stopped for UPLOAD_IDLE_TIMEOUT_MS (error.details.reason BODY_IDLE), or arrived slower than UPLOAD_BODY_TIMEOUT_MS plus a second per UPLOAD_MIN_BYTES_PER_SECOND bytes (BODY_TOO_SLOW); nothing is kept, the connection is closed behind the answer (Connection: close) and the upload slot is free.',
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
