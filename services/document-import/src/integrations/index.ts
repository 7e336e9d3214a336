// The document-import service's calls to the world outside it, as plain functions and classes
// (no Express; every client takes a base URL and, optionally, a fetch). What the service and the
// worker use:
//
// Clients (each built from a PeerEndpoint { baseUrl, fetch?, timeoutMs?, internalToken? }; Scope is
// { organizationId, userId?, role? }, forwarded as X-Organization-Id / X-User-Id / X-User-Role):
// - DocumentClient: fetchObject(storageKey, scope?) → { bytes, size, contentType }, 50 MB cap
//   enforced while streaming (413 PAYLOAD_TOO_LARGE), whole-transfer timeout (60 s), 404
//   STORAGE_OBJECT_NOT_FOUND for an unknown key; uploadMediaAsset({ bytes, fileName, contentType },
//   scope) → { id, key, contentUrl } (presigned upload, PUT, register); openMediaContent(id, scope?)
//   → { contentType, contentLength?, body: Readable } (404 MEDIA_ASSET_NOT_FOUND).
// - ExternalParserClient: parse(file: Blob, fileName) → the raw payload of
//   `{parser_url}/v1/import/docx/simple?include_html=1&include_meta=1&include_solution=1`.
// - QuestionBankClient.importDocxOutput(body, scope, idempotencyKey); ExamClient.createDraft /
//   putQuestionSnapshots. Used through approveJob, rarely directly.
// Every peer failure is an AppError: 503 DEPENDENCY_UNAVAILABLE (unreachable, timed out, or the
// peer answered 502/503/504) or 502 UPSTREAM_ERROR, details { service, upstreamStatus,
// upstreamCode, upstreamMessage }; never the peer's headers or what we sent.
//
// Work:
// - parseWithEngines({ bytes, fileName, documentId?, parser?, file? }) → QasOutput: the worker's
//   parse (native parser first; the external result when a parser is configured; see parser-client.ts
//   for how they combine; PARSER_ENGINE_NOT_CONNECTED when not configured). Throws DocxError for a
//   hostile file, and DOCX_NO_QUESTIONS_FOUND when no engine finds a question.
// - materializeMedia(output, docxBytes, { documents?, scope }) → { output, materialized, failed }:
//   package pictures uploaded and rewritten to /api/storage/media-assets/{id}/content;
//   FORMULA_DOCX_IMAGE_MATERIALIZE_FAILED keeps the reference; without `documents`, one
//   DOCX_MEDIA_NOT_MATERIALIZED warning. Adds stats.images_materialized / stats.images_pending.
// - approveJob(job { id, fileName?, title?, output }, request, scope, { questionBank, exams? }) →
//   ApprovalResult { target, approvalKey, documentId, questionIds, importedCount, examId?,
//   examCreated?, snapshotCount? }. approvalKey(request) is the key to store with
//   `approval.completed` (compare before calling approveJob to answer a retry from storage);
//   approvalBodySchema is the route's Joi schema for the body.
// - baselineReparse(sourceText, documentId?) → QasOutput with DOCX_REVIEW_BASELINE_REPARSE (pure).
export {
  DocumentClient,
  MAX_FETCH_BYTES,
  mediaContentPath,
  type DocumentEndpoint,
  type MediaAsset,
  type MediaContent,
  type MediaUpload,
  type StoredObject,
} from './document-client.js';
export { type FetchLike, type PeerEndpoint, type Scope } from './http.js';
export {
  IMAGE_MATERIALIZE_FAILED,
  MEDIA_NOT_MATERIALIZED,
  materializeMedia,
  type MaterializeOptions,
  type MaterializeResult,
} from './materialize.js';
export {
  ExternalParserClient,
  PARSER_FAILED_NATIVE_USED,
  PARSER_NOT_CONNECTED,
  PARSER_PATH,
  parseWithEngines,
  type ParseInput,
} from './parser-client.js';
export { ANNOTATED_FALLBACK, STYLE_HINT_EVIDENCE, fromExternalPayload } from './external-payload.js';
export { QuestionBankClient, type IngestResult } from './question-bank-client.js';
export { ExamClient, type ExamCreate, type ExamSnapshot } from './exam-client.js';
export {
  approvalBodySchema,
  approvalKey,
  approveJob,
  ingestBody,
  upstreamIdempotencyKey,
  type ApprovalClients,
  type ApprovalJob,
  type ApprovalRequest,
  type ApprovalResult,
  type ApprovalTarget,
  type QuestionMetadata,
} from './approval.js';
export { buildSnapshots } from './snapshots.js';
export { ANSWER_MARKER_EVIDENCE, BASELINE_REPARSE_WARNING, baselineReparse } from './baseline-reparse.js';
