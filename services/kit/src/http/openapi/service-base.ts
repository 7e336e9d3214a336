import { readFileSync } from 'node:fs';
import Joi from 'joi';
import { documentHead, type DocumentHead } from './decisions.js';
import { openApiDocument, type DocumentBase, type DocumentedRoute } from './document.js';
import type { JsonObject } from './json-schema.js';
import { actorHeader } from './parameters.js';
import { errorResponse, INTERNAL_TOKEN_SCHEME } from './responses.js';

/** The kit's outbox gauges and counters, for `/metrics`'s description in a service that relays one. */
export const OUTBOX_METRICS =
  'outbox_pending_entries, outbox_oldest_pending_age_seconds, outbox_published_total, outbox_dead_total';

/** What a service's document states before its routes: its name, version, local port and metrics. */
export interface ServiceDocumentHead extends Omit<DocumentHead, 'decisions'> {
  /** The service's `src/openapi.ts` (`import.meta.url`): `document.json` and `decisions.json` sit beside `src/`. */
  from: string;
  /** The service's metrics beyond the kit's, for `/metrics`'s description. */
  metrics?: string;
}

/** The components a service adds in code: responses before its described errors, and its schemas. */
export interface ServiceComponents {
  responses?: JsonObject;
  schemas?: JsonObject;
}

/** A service's `document.json`: the document's prose, kept out of the code like its decisions. */
interface DocumentProse {
  description: string;
  /** Header parameters by component name: the header, what it means, whether it is required. */
  headers: Record<string, { name: string; description: string; required?: boolean }>;
  /** Error responses by component name: what they answer (codes and causes). */
  errors: Record<string, string>;
}

const text = Joi.string().min(1);
const PROSE = Joi.object<DocumentProse, true>({
  description: text.required(),
  headers: Joi.object()
    .pattern(text, Joi.object({ name: text.required(), description: text.required(), required: Joi.boolean() }))
    .required(),
  errors: Joi.object().pattern(text, text).required(),
});

/** The prose of `file`; a missing or malformed file throws when the document is built (start-up). */
function proseFrom(file: URL): DocumentProse {
  const { value, error } = PROSE.validate(JSON.parse(readFileSync(file, 'utf8')));
  if (error) throw new Error(`${file.pathname}: ${error.message}`);
  return value;
}

const mapValues = <T>(record: Record<string, T>, f: (v: T) => JsonObject): JsonObject =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));

const unlessEmpty = (key: string, value: JsonObject): JsonObject =>
  Object.keys(value).length > 0 ? { [key]: value } : {};

/**
 * The base of a service's document: the kit's paths named for it, the head (`info` with the prose's
 * description, the local server, `x-decisions`), then the internal-token scheme every service
 * checks, the prose's header parameters and error responses, and the schemas given in code.
 */
export function serviceDocumentBase(head: ServiceDocumentHead, components: ServiceComponents = {}): DocumentBase {
  const prose = proseFrom(new URL('../document.json', head.from));
  const parameters = mapValues(prose.headers, (h) => actorHeader(h.name, h.description, h.required ?? false));
  const responses = { ...components.responses, ...mapValues(prose.errors, errorResponse) };
  return {
    kit: { service: head.service, ...(head.metrics ? { metrics: head.metrics } : {}) },
    ...documentHead({ ...head, decisions: new URL('../decisions.json', head.from) }, prose.description),
    components: {
      securitySchemes: { internalToken: INTERNAL_TOKEN_SCHEME },
      ...unlessEmpty('parameters', parameters),
      ...unlessEmpty('responses', responses),
      ...(components.schemas ? { schemas: components.schemas } : {}),
    },
  };
}

/**
 * A service's OpenAPI document as a function: its base (see `serviceDocumentBase`, read once, on
 * the first call) and its route declarations, which the validation and handler types come from too.
 */
export function serviceDocument(
  head: ServiceDocumentHead,
  components: ServiceComponents,
  routes: readonly DocumentedRoute[],
): () => JsonObject {
  let base: DocumentBase | undefined;
  return () => openApiDocument((base ??= serviceDocumentBase(head, components)), routes);
}
