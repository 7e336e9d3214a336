import {
  actorHeader,
  errorResponse,
  openApiDocument,
  ref,
  type DocumentBase,
  type JsonObject,
} from '../../kit/src/index.js';
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
  info: {
    title: 'edu-platform document-import service',
    version: SERVICE_VERSION,
    description:
      "The document-import service of ../shared/seeds/002_22a95652a6cd7e3e.txt: the synchronous QAS and stream routes, upload and DOCX Fast jobs (spooled, queued on Kafka `docx-import.jobs.v1`, parsed by the parser workers), job lists, detail, status, event streams, review, temp drafts, reprocess and approval. Every /v1/import route needs X-User-Id (401 UNAUTHENTICATED without it), X-User-Role TEACHER or ADMIN (403 FORBIDDEN otherwise) and X-Organization-Id (400 VALIDATION_ERROR without it). components.schemas.QasOutput is the parser's output (a test validates every corpus output against it).",
  },
  'x-decisions': [
    "QAS output beyond the contract's fields: `groups` (PART, SECTION and PASSAGE groups, nested through parent_group_id), per question `part`, `points`, `type_confidence`, `review_reason`, `sub_items`, `correct_answer_numeric`, `solution`, `formulas`, `media`.",
    "`document_id` is the caller's, else `docx-` + the first 24 hex digits of the file's SHA-256.",
    "`correct_answer`: a label (`B`) for single choice, an array of labels for MULTIPLE_CHOICE, an object a..d -> boolean for TRUE_FALSE_GROUP, the teacher's own text (`-2,5`) for short answers, null when none was found (then DOCX_NATIVE_ANSWER_MISSING).",
    'Answer precedence: answer line > answer-key table > (Đúng)/(Sai) suffix or X table > style marks; a disagreement keeps the line or key and warns DOCX_NATIVE_ANSWER_CONFLICT. A style kind that marks every option is formatting, never an answer; marks in the stem and letters inside a solution are never answers.',
    '`stats.total_images` counts pictures and non-equation OLE objects; MathType/Equation OLE objects are formula artifacts (stats.total_equation_objects) and are still kept as media.',
    'A hostile or corrupt file is refused with one of the DocxErrorCode values; each becomes a 4xx of the service (415 for DOCX_NOT_ZIP and DOCX_UNSUPPORTED, 413 for DOCX_TOO_LARGE, DOCX_TOO_MANY_ENTRIES, DOCX_COMPRESSION_RATIO and DOCX_TOO_COMPLEX, 422 for DOCX_PARSE_TIMEOUT, 400 for the rest). Limits: 5,000 entries, 100 MB uncompressed in total, ratio 200x past 1 MB per entry, XML parts 32 MB, XML nesting 256; DOCTYPE and entities beyond the five predefined ones are refused.',
    'A valid DOCX in which no question is found is never an empty success: DOCX_NO_QUESTIONS_FOUND, with what the parser saw as details (`paragraphs` and `tables` of the body, `firstLines`: the first 5 non-empty lines, each cut at 120 characters) and the same in the message. POST /qas answers 422 Unprocessable Entity (the file is a DOCX, it holds nothing importable); the stream route ends with one `error` event {code, message, status: 422, details}; an import job (upload or fast job, reprocess) ends FAILED with errorSummary {code, message, details}, its job.failed event carrying the code and the message only. With DOCX_PARSER_URL set the external parser is still asked, and its questions are the result; when it finds none, or fails, the native DOCX_NO_QUESTIONS_FOUND stands.',
    "Warnings besides the contract's DOCX_NATIVE_STYLE_ANSWER_HINT_APPLIED and DOCX_NATIVE_DGNL_FALLBACK: DOCX_NATIVE_ANSWER_MISSING, DOCX_NATIVE_ANSWER_CONFLICT, QUESTION_TYPE_LOW_CONFIDENCE (confidence < 0.7), DOCX_NATIVE_EQUATION_PARTIAL, DOCX_NATIVE_OLE_EQUATION_KEPT.",
    "Scope (issue 20): every /v1/import route requires an actor with role TEACHER or ADMIN; the contract opens none of them to other roles. Checked in this order, before an upload is read or spooled: 401 UNAUTHENTICATED without X-User-Id, 403 FORBIDDEN unless X-User-Role is TEACHER or ADMIN (a STUDENT, a PARENT or an actor without a role), 400 VALIDATION_ERROR without X-Organization-Id. X-User-Role is the caller's role in the organization X-Organization-Id names (the gateway computes it from the membership), so the check is organization-scoped. Visibility: a job of another organization is 404 IMPORT_JOB_NOT_FOUND on every route (detail, status, event stream, review, approve, temp draft and its assets, reprocess), exactly as an unknown id, and never appears in a list, the teacher library or the all-jobs stream. Within its organization a job is its creator's: a TEACHER sees and changes only its own jobs (a colleague's job is 404 too, the contract keys jobs, idempotency and approval forwarding on the actor); an ADMIN sees and changes every job of its organization (and may list one creator's with createdBy).",
    'Upload refusals: a file name not ending in .docx is 415 UNSUPPORTED_MEDIA_TYPE at the part header (no byte stored); no ZIP magic is 415 DOCX_INVALID_FILE; past 50 MB is 413 PAYLOAD_TOO_LARGE at byte 50 MB + 1 while streaming. Upload jobs, fast jobs, reprocess and the stream route read the package before anything is spooled, queued or streamed (ZIP64, entries, sizes and ratios while inflating with bounded output, the XML parts: DOCTYPE, entities, nesting; word/document.xml present), so every hostile file is a 4xx of the request with the parser code; the question structure is left to the parse.',
    'Upload refusals arrive: a refused upload whose body is within the size limit (a non-.docx name, a missing or bad header, a malformed form, 401/400 before the upload is read, 503 UPLOADS_BUSY) is read to its end and discarded before the answer, so a client still sending gets the 4xx with its message (never a connection closed under it: EPIPE). Only an oversized body is cut: a declared Content-Length past the limit is answered 413 before a byte is read, a streamed one at byte 50 MB + 1, and the connection is closed after the answer is written.',
    'POST /qas/jobs answers 202 with the PENDING summary (message `DOCX import job queued`); POST /docx-fast-jobs answers 202, or 200 with Idempotent-Replayed: true for a replay. An Idempotency-Key longer than 120 characters after trimming is a 400, not silently cut.',
    'Stream route shape: see POST /qas/stream (progress, question, result or error events).',
    "List filters: status, jobKind, source, q (title or file name substring), createdFrom, createdTo; page/limit as everywhere (20, clamped 1..100); newest first. teacher-library is always the caller's own jobs; jobs is the organization's for an ADMIN.",
    "Detail omits the worker's original output when a review was saved (parseResultJson is the reviewed payload).",
    'Reprocess is for fast jobs only (the upload of an upload job is gone once it ran): 404 for an upload job.',
    "Approvals forward X-Organization-Id, X-User-Id and X-User-Role: the actor's own role (TEACHER or ADMIN), never one the service makes up. A job stores its creator's role when it is submitted; auto-approval acts as the creator with that role. A job stored before the role was (no creator role) is auto-approved with no role, which the question bank refuses: auto_approval.failed, the job stays COMPLETED and can be approved by hand.",
    "Approval keys: sha256 of the job id, run, review time and the canonical request; auto-approval (autoApproveToQuestionBank) uses the same path in the creator's scope with auto_approval.completed / auto_approval.failed and never changes the job status.",
    'Temp-draft assets: the tempAssetId must match media_asset_id, media_id, go_asset_id (snake or camel case) or a /media-assets/{id}/content URL of a materialized reference (one with a media asset id); anything else is 404 TEMP_ASSET_NOT_FOUND, before the document service is asked.',
    "Poison jobs: every time a parser worker takes a run (claims it under its lease) the job's attempt count goes up by one, in the same write that marks it PROCESSING, so before any byte is parsed. A worker that dies mid-job (crash, out of memory, a time limit that kills it) never commits its work item, so the item comes back; once DOCX_WORKER_MAX_ATTEMPTS workers (default 3) have taken the run, the next delivery FAILs the job with errorSummary.code DOCX_WORKER_CRASHED and the usual job.failed event, releases the payload and commits the item instead of parsing again. A reprocess starts a new run with the count at zero. A refusal of the file (a DocxErrorCode) is a normal FAILED on the first attempt and never counts as a crash.",
    "Upload spool: the three upload routes (POST /qas, /qas/stream, /qas/jobs) stream the file to UPLOAD_SPOOL_DIR (default os.tmpdir(); the service creates it at start) while their request lasts, and one process spools at most UPLOAD_MAX_CONCURRENT (default 4, 1..64) uploads at once, so the directory needs at most 50 MB x UPLOAD_MAX_CONCURRENT (plus form slack). One more upload is refused before a byte is read: 503 UPLOADS_BUSY with Retry-After: 2 (503, not 429: the limit is the process's capacity, not the client's rate; details.maxConcurrent). The spooled file is removed on every path (after the answer, on any refusal, on a client that aborts) and only then is its slot freed. The job payload spool (DOCX_IMPORT_PAYLOAD_DIR or GridFS) is separate.",
    'Review text: sourceText (up to 1,000,000 characters) is read line by line with hand-written scanners in linear time (the regular expressions they replaced were quadratic on runs of whitespace and stalled the event loop); the only expressions left on user text in this service are unambiguous (linear) and the lint rules regexp/no-super-linear-backtracking and regexp/no-super-linear-move guard them. A line holding a lone \\r, U+2028 or U+2029 is read like any other (they count as spaces).',
    "Parsing never runs on an event loop (issue 20): the upload precheck, the synchronous QAS routes and the worker's parse run in a pool of worker threads with V8 heap limits and a wall-clock limit (DOCX_PARSER_THREADS 1, DOCX_PARSER_QUEUE 8, DOCX_PARSER_TIME_LIMIT_MS 20000, DOCX_PARSER_HEAP_MB 256). A document past the memory or structure limits is 413 DOCX_TOO_COMPLEX (details: part, limit, max), past the time limit 422 DOCX_PARSE_TIMEOUT; a full queue is 503 DOCX_PARSER_BUSY with Retry-After. A thread past a limit is replaced; the process lives on.",
  ],
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
      internalToken: {
        type: 'apiKey',
        in: 'header',
        name: 'X-Internal-Token',
        description:
          'Required on /v1/* routes (except /v1 and /v1/openapi.json) when INTERNAL_API_TOKEN is configured.',
      },
    },
  },
};

/** The document-import service's OpenAPI document, generated from its route declarations. */
export function importDocument(): JsonObject {
  return openApiDocument(BASE, importRoutes);
}
