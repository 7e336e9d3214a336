import type { DocumentBase } from './document.js';
import { documentHead, type DocumentHead } from './decisions.js';
import type { JsonObject } from './json-schema.js';
import { INTERNAL_TOKEN_SCHEME } from './responses.js';

/** The kit's outbox gauges and counters, for `/metrics`'s description in a service that relays one. */
export const OUTBOX_METRICS =
  'outbox_pending_entries, outbox_oldest_pending_age_seconds, outbox_published_total, outbox_dead_total';

/** What a service's document states before its routes: its head, its prose and its own metrics. */
export interface ServiceDocumentHead extends DocumentHead {
  /** The document's `info.description`. */
  description: string;
  /** The service's metrics beyond the kit's, for `/metrics`'s description. */
  metrics?: string;
}

/** The components a service adds: shared header parameters, responses and response schemas. */
export interface ServiceComponents {
  parameters?: JsonObject;
  responses?: JsonObject;
  schemas?: JsonObject;
}

/**
 * The base of a service's document: the kit's paths named for it, the head (`info`, the local
 * server, `x-decisions`) and its components after the internal-token scheme every service checks.
 */
export function serviceDocumentBase(head: ServiceDocumentHead, components: ServiceComponents): DocumentBase {
  return {
    kit: { service: head.service, ...(head.metrics ? { metrics: head.metrics } : {}) },
    ...documentHead(head, head.description),
    components: { securitySchemes: { internalToken: INTERNAL_TOKEN_SCHEME }, ...components },
  };
}
