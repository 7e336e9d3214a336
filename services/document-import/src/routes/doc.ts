import type Joi from 'joi';
import { jsonSchemaOf, okResponse, ref, type JsonObject, type OperationDoc } from '../../../kit/src/http/index.js';

/** The actor headers every import route requires (checked before anything else). */
export const SCOPE_HEADERS = [
  ref('parameters', 'UserHeader'),
  ref('parameters', 'OrganizationHeader'),
  ref('parameters', 'RoleHeader'),
];

/** Every import route: open without INTERNAL_API_TOKEN, the internal token with it. */
export const SECURED: JsonObject = { security: [{}, { internalToken: [] }] };

/** The named error responses of `components.responses`, by status: `refused({ 404: 'NotFound' })`. */
export function refused(byStatus: Record<string, string>): JsonObject {
  return Object.fromEntries(Object.entries(byStatus).map(([status, name]) => [status, ref('responses', name)]));
}

/** What every scoped route may answer: a malformed request, no actor, a role it does not admit. */
export const SCOPE_ERRORS = { 400: 'BadRequest', 401: 'Unauthenticated', 403: 'Forbidden' };
/** A route about one job: the scope's errors and 404 for a job the caller may not see. */
export const JOB_ERRORS = { ...SCOPE_ERRORS, 404: 'NotFound' };
/** A refused DOCX: too large, not a DOCX, or a DOCX the parser refuses. */
export const DOCX_ERRORS = { 413: 'PayloadTooLarge', 415: 'UnsupportedMediaType', 422: 'UnprocessableDocument' };

/** A success response whose data is the named schema (and whose message is `message`). */
export function answers(description: string, schema: string, message?: string): JsonObject {
  return okResponse(description, ref('schemas', schema), message);
}

/** A server-sent event stream: one event's document form (its name among `events`, JSON data). */
export function eventStream(description: string, events: string[]): JsonObject {
  const event: JsonObject = {
    type: 'object',
    description: 'One event (schemathesis and OpenAPI 3.1 read this schema per event): `data` is JSON text.',
    required: ['event', 'data'],
    properties: {
      event: { type: 'string', enum: events },
      data: { type: 'string', contentMediaType: 'application/json' },
      id: { type: 'string' },
      retry: { type: 'integer' },
    },
  };
  return { description, content: { 'text/event-stream': { schema: event } } };
}

const DOCX_FILE: JsonObject = {
  type: 'string',
  format: 'binary',
  description: 'A .docx file (ZIP magic header), at most 50 MB.',
};

/**
 * A DOCX upload's document: the multipart form (the `file` part, and the text fields `fields`
 * validates), and the file part's encoding.
 */
export function docxForm(
  fields?: Joi.ObjectSchema,
): Required<Pick<OperationDoc, 'bodyContentType' | 'bodySchema' | 'bodyEncoding'>> {
  const form = fields ? jsonSchemaOf(fields) : { type: 'object' };
  const properties = { file: DOCX_FILE, ...(form.properties as JsonObject | undefined) };
  return {
    bodyContentType: 'multipart/form-data',
    bodySchema: { ...form, required: ['file'], properties },
    bodyEncoding: {
      file: {
        contentType:
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document, application/octet-stream',
        headers: {
          'Content-Disposition': {
            schema: { type: 'string', example: 'form-data; name="file"; filename="de-thi.docx"' },
          },
        },
      },
    },
  };
}
