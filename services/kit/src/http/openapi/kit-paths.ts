import type { JsonObject } from './json-schema.js';
import { errorResponse, okResponse } from './responses.js';

/** What differs between services in the kit's own paths. */
export interface KitPathsOptions {
  /** The service's name, as `GET /v1` answers it (each name, for a document several processes serve). */
  service: string | string[];
  /** The service's own metrics beyond the kit's, for `/metrics`'s description. */
  metrics?: string;
  /** `GET /readyz` when it is not the kit's MongoDB-gated readiness (the gateway's). */
  readiness?: JsonObject;
}

const serviceName = (name: string | string[]): JsonObject =>
  Array.isArray(name) ? { type: 'string', enum: name } : { const: name };

const get = (operation: JsonObject): JsonObject => ({ get: operation });

const KIT_READINESS: JsonObject = {
  summary: 'Readiness: MongoDB answers a ping (Kafka reported, not gating, when KAFKA_BROKERS is set)',
  description:
    "Gates on MongoDB only. With KAFKA_BROKERS set, Kafka is checked too and reported in data.checks.kafka ('ok' or 'fail: <why>'), but a Kafka failure never makes the service unready: writes go through the outbox, which holds their events until Kafka answers again, so a Kafka outage does not take the service out of rotation (issue 21).",
  responses: {
    200: okResponse('Success', {
      type: 'object',
      properties: { status: { const: 'ready' }, checks: { type: 'object', additionalProperties: { type: 'string' } } },
    }),
    503: errorResponse(
      'A named check fails, or the process is shutting down; error.details.failing names it. Codes: DEPENDENCY_UNAVAILABLE.',
    ),
  },
};

/**
 * The document's part for the routes every service's app has (`createApp`'s own): liveness,
 * readiness, name and version, this document and the metrics.
 */
export function kitPaths(opts: KitPathsOptions): JsonObject {
  const metrics = ['prom-client default metrics, http_request_duration_seconds{method,route,status}', opts.metrics];
  return {
    '/healthz': get({
      summary: 'Liveness',
      responses: { 200: okResponse('Success', { type: 'object', properties: { status: { const: 'alive' } } }) },
    }),
    '/readyz': get(opts.readiness ?? KIT_READINESS),
    '/v1': get({
      summary: 'Service name and version',
      responses: {
        200: okResponse('Success', {
          type: 'object',
          properties: { service: serviceName(opts.service), version: { type: 'string' } },
        }),
      },
    }),
    '/v1/openapi.json': get({ summary: 'This document', responses: { 200: { description: 'OpenAPI 3.1 document' } } }),
    '/metrics': get({
      summary: 'Prometheus metrics (text exposition)',
      responses: { 200: { description: metrics.filter(Boolean).join(', ') } },
    }),
  };
}
