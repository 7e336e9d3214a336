import {
  INTERNAL_TOKEN_SCHEME,
  documentHead,
  actorHeader,
  errorResponse,
  openApiDocument,
  ref,
  type DocumentBase,
  type JsonObject,
} from '../../kit/src/http/index.js';
import { JOB_VIEW_SCHEMAS } from './routes/job-views.js';
import { QAS_OUTPUT_SCHEMAS } from './routes/qas-output.js';
import { importRoutes } from './routes/index.js';

export const SERVICE_NAME = 'document-import';
export const SERVICE_VERSION = '0.1.0';

/**
 * What the document-import service's document says beside its routes: the service, its rules, the
 * shared headers and error responses, and the response shapes (the QAS output that the parser's
 * tests and docx-file.ts read by name).
 */
const BASE: DocumentBase = {
  kit: {
    service: SERVICE_NAME,
  },
  ...documentHead(
    { service: SERVICE_NAME, version: SERVICE_VERSION, decisions: new URL('../decisions.json', import.meta.url) },
    "The document-import service of ../shared/seeds/002_22a95652a6cd7e3e.txt: the synchronous QAS and stream routes, upload and DOCX Fast jobs (spooled, queued on Kafka `docx-import.jobs.v1`, parsed by the parser workers), job lists, detail, status, event streams, review, temp drafts, reprocess and approval. Every /v1/import route needs X-User-Id (401 UNAUTHENTICATED without it), X-User-Role TEACHER or ADMIN (403 FORBIDDEN otherwise) and X-Organization-Id (400 VALIDATION_ERROR without it). components.schemas.QasOutput is the parser's output (a test validates every corpus output against it).",
  ),
  components: {
    schemas: { ...QAS_OUTPUT_SCHEMAS, ...JOB_VIEW_SCHEMAS },
    responses: {
      BadRequest: errorResponse(
        'Validation failed (VALIDATION_ERROR): unknown fields, wrong types, limits, a malformed header or JSON body, no X-Organization-Id; a DOCX refused by the parser (DOCX_CORRUPT, DOCX_MISSING_DOCUMENT, DOCX_XML_DOCTYPE, DOCX_XML_INVALID).',
      ),
      Forbidden: errorResponse(
        'FORBIDDEN: X-User-Role is not TEACHER or ADMIN (a STUDENT, a PARENT, or no role); error.details.allowedRoles. Answered before any upload byte is read.',
      ),
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
      Unauthenticated: errorResponse('No X-User-Id (UNAUTHENTICATED), or a wrong X-Internal-Token.'),
      NotFound: errorResponse(
        'IMPORT_JOB_NOT_FOUND: unknown id, or a job of another organization or (for non-admins) another actor; TEMP_ASSET_NOT_FOUND; STORAGE_OBJECT_NOT_FOUND (no stored file under questionStorageKey).',
      ),
      Conflict: errorResponse('IMPORT_JOB_ACTIVE (reprocess while PENDING or PROCESSING), IMPORT_JOB_NOT_COMPLETED.'),
      PayloadTooLarge: errorResponse(
        'PAYLOAD_TOO_LARGE past 50 MB (refused while streaming); DOCX_TOO_LARGE, DOCX_TOO_MANY_ENTRIES, DOCX_COMPRESSION_RATIO (zip bombs).',
      ),
      UnsupportedMediaType: errorResponse(
        'UNSUPPORTED_MEDIA_TYPE (not multipart, not JSON, or a file name not ending in .docx), DOCX_INVALID_FILE (no ZIP magic header, or a stored file not named .docx), DOCX_NOT_ZIP, DOCX_UNSUPPORTED (ZIP64).',
      ),
      UnprocessableDocument: errorResponse(
        'DOCX_NO_QUESTIONS_FOUND (POST /qas): a valid DOCX in which the parser found no question; error.details: { code, paragraphs, tables, firstLines } (see ImportJobSummary.errorSummary.details), the same summary in the message. DOCX_PARSE_TIMEOUT: the parse (or the package check before a job is queued) passed its time limit.',
      ),
      BadGateway: errorResponse(
        'UPSTREAM_ERROR: the document service, question bank or exam service answered with an error.',
      ),
      Unavailable: errorResponse(
        'DEPENDENCY_UNAVAILABLE: MongoDB, Kafka or a peer service is unreachable, or the service is shutting down.',
      ),
    },
    parameters: {
      UserHeader: actorHeader('X-User-Id', 'The actor (401 without it).', true),
      OrganizationHeader: actorHeader('X-Organization-Id', 'The tenant (400 without it).', true),
      RoleHeader: actorHeader(
        'X-User-Role',
        "The caller's role in the organization X-Organization-Id names (the gateway computes it). TEACHER (its own jobs) or ADMIN (every job of its organization); STUDENT, PARENT or none is 403 FORBIDDEN.",
        true,
      ),
    },
    securitySchemes: {
      internalToken: INTERNAL_TOKEN_SCHEME,
    },
  },
};

/** The document-import service's OpenAPI document, generated from its route declarations. */
export function importDocument(): JsonObject {
  return openApiDocument(BASE, importRoutes);
}
