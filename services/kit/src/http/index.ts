// The kit's http layer: the Express app, declared routes and their validation, the response
// envelope, uploads, SSE, the Idempotency-Key middleware and the OpenAPI document builders. It
// imports the core and data layers only.
export { ok, list, pagingKeys } from './envelope.js';
export { upload, UPLOAD_TEMP_PREFIX, type UploadOptions } from './upload.js';
export { sse, StreamRegistry, type SseStream, type SseHandler, type SseOptions } from './sse.js';
export {
  idempotencyKey,
  idempotencyRecordModel,
  type IdempotencyKeyOptions,
  type IdempotencyRecord,
} from './idempotency.js';
export { requireRole } from './roles.js';
export { validate, type RequestSchemas } from './validate.js';
export { tolerant, applySpellings, type Spelling, type SpellingConflict } from './tolerant.js';
export { trimmedString, trimmedPattern, dateTimeString, TRIMMED_WHITESPACE } from './text.js';
export {
  routes,
  routerFor,
  routeOrder,
  type Route,
  type RouteDeclaration,
  type OperationDoc,
  type ValidRequest,
  type Empty,
} from './route.js';
export { documented, documentedAs, named, jsonSchemaOf, type Json, type JsonObject } from './openapi/json-schema.js';
export { openApiDocument, openApiPath, type DocumentBase, type DocumentedRoute } from './openapi/document.js';
export {
  envelope,
  okResponse,
  errorResponse,
  errorResponses,
  ref,
  listData,
  ERROR_SCHEMA,
  INTERNAL_TOKEN_SCHEME,
  LIST_META_SCHEMA,
  SHARED_RESPONSES,
} from './openapi/responses.js';
export { kitPaths, type KitPathsOptions } from './openapi/kit-paths.js';
export { actorHeader } from './openapi/parameters.js';
export { decisionsFrom } from './openapi/decisions.js';
export {
  createApp,
  readOpenApi,
  serviceApp,
  type AppOptions,
  type ServiceAppOptions,
  type ServiceAppParts,
} from './app.js';
export { onlyMethods } from './routing.js';
export { counterObject } from './openapi/json.js';
export {
  OUTBOX_METRICS,
  serviceDocument,
  serviceDocumentBase,
  type ServiceComponents,
  type ServiceDocumentHead,
} from './openapi/service-base.js';
export { closedObject } from './openapi/shapes.js';
