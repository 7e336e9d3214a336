import type Joi from 'joi';
import { jsonSchemaOf, membersOf, type Json, type JsonObject, type SchemaComponents } from './json-schema.js';
import { kitPaths, type KitPathsOptions } from './kit-paths.js';
import { ERROR_SCHEMA } from './responses.js';

/** What a route gives the document: its method, path, schemas and what its `doc` says. */
export interface DocumentedRoute {
  method: string;
  path: string;
  params?: Joi.ObjectSchema;
  query?: Joi.ObjectSchema;
  body?: Joi.ObjectSchema;
  doc: OperationDoc;
}

/** What the OpenAPI document says about a route beyond what its schemas give. */
export interface OperationDoc {
  summary: string;
  operationId?: string;
  description?: string;
  tags?: string[];
  /** Parameters the schemas do not state: headers, cookies (usually `$ref`s to components). */
  parameters?: JsonObject[];
  /** The request body's content type (application/json by default) and description. */
  bodyContentType?: string;
  bodyDescription?: string;
  /** False where the body may be absent (the token comes in a header instead); true by default. */
  bodyRequired?: boolean;
  /** The body's document form when it is not the body schema's (a multipart upload). */
  bodySchema?: JsonObject;
  /** The body's per-part `encoding` (a multipart file part's content type and headers). */
  bodyEncoding?: JsonObject;
  responses: JsonObject;
  /** `security`, `x-upstream` and any other operation field, copied as is. */
  extra?: JsonObject;
}

/**
 * What a service's document holds beside its routes: `info`, `servers`, `x-decisions`, what its
 * kit paths say, and `components` (responses' schemas, shared parameters). The kit's paths and the
 * `Error` schema are added unless the base states its own.
 */
export interface DocumentBase {
  kit: KitPathsOptions;
  info: JsonObject;
  servers?: JsonObject[];
  'x-decisions'?: Json[];
  /** Top-level fields after `paths` (`x-tables`). */
  extra?: JsonObject;
  components: JsonObject & { schemas?: JsonObject };
}

/** Express path syntax to OpenAPI's: `/v1/users/:userId` is `/v1/users/{userId}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

/**
 * The service's OpenAPI 3.1 document: every route's operation (parameters and request body from
 * its joi schemas, the rest from its `doc`) in declared order, then the base's own paths; schemas
 * the routes name join `components.schemas` after the base's.
 */
export function openApiDocument(base: DocumentBase, routes: readonly DocumentedRoute[]): JsonObject {
  const named: SchemaComponents = new Map();
  const paths: JsonObject = {};
  for (const r of routes) {
    const path = openApiPath(r.path);
    const item = (paths[path] ?? {}) as JsonObject;
    if (item[r.method]) throw new Error(`${r.method.toUpperCase()} ${path} is declared twice`);
    item[r.method] = operation(r, named);
    paths[path] = item;
  }
  const schemas = { Error: ERROR_SCHEMA, ...base.components.schemas, ...Object.fromEntries(named) };
  return {
    openapi: '3.1.0',
    info: base.info,
    ...(base.servers ? { servers: base.servers } : {}),
    ...(base['x-decisions'] ? { 'x-decisions': base['x-decisions'] } : {}),
    paths: { ...paths, ...kitPaths(base.kit) },
    ...base.extra,
    components: { ...base.components, schemas },
  };
}

function operation(r: DocumentedRoute, named: SchemaComponents): JsonObject {
  const { doc } = r;
  const parameters = [
    ...parametersOf(r.params, 'path', named),
    ...(doc.parameters ?? []),
    ...parametersOf(r.query, 'query', named),
  ];
  const body = requestBody(r, named);
  return {
    summary: doc.summary,
    ...(doc.operationId ? { operationId: doc.operationId } : {}),
    ...(doc.description ? { description: doc.description } : {}),
    ...(doc.tags ? { tags: doc.tags } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: doc.responses,
    ...doc.extra,
  };
}

function parametersOf(schema: Joi.ObjectSchema | undefined, where: 'path' | 'query', named: SchemaComponents) {
  if (!schema) return [];
  return membersOf(schema, named).map(({ name, schema: member, required }): JsonObject => {
    const { description, ...rest } = member;
    return {
      name,
      in: where,
      required: where === 'path' || required,
      schema: rest,
      ...(description !== undefined ? { description } : {}),
    };
  });
}

function requestBody(r: DocumentedRoute, named: SchemaComponents): JsonObject | undefined {
  const schema = r.doc.bodySchema ?? (r.body ? jsonSchemaOf(r.body, named) : undefined);
  if (!schema) return undefined;
  // A body schema with a default makes the body optional (joi fills it in when absent).
  const flags: object = r.body?.describe().flags ?? {};
  const optional = 'default' in flags;
  const media: JsonObject = r.doc.bodyEncoding ? { schema, encoding: r.doc.bodyEncoding } : { schema };
  return {
    ...(r.doc.bodyDescription ? { description: r.doc.bodyDescription } : {}),
    required: r.doc.bodyRequired ?? !optional,
    content: { [r.doc.bodyContentType ?? 'application/json']: media },
  };
}
