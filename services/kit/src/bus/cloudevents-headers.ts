// CloudEvents Kafka protocol binding, structured content mode (docs/events.md): the value is the
// whole event in the JSON event format, `content-type` names that format (binding 3.3.1), and the
// binary mode's `ce_` headers ride along as routing aids (3.3.3 allows them; 3.2.3.1 names them).

/** The `content-type` of a structured-mode record in the JSON event format. */
export const CLOUDEVENTS_CONTENT_TYPE = 'application/cloudevents+json; charset=UTF-8';

/** Header names of the binding (`ce_` + attribute name). */
export const CE_HEADERS = {
  contentType: 'content-type',
  id: 'ce_id',
  type: 'ce_type',
  source: 'ce_source',
  specversion: 'ce_specversion',
  subject: 'ce_subject',
  time: 'ce_time',
} as const;

/** The header releases up to chart 0.1.0 wrote (not the binding's name); still read during upgrades. */
export const LEGACY_ID_HEADER = 'ce-id';

const ATTRIBUTES = ['type', 'source', 'specversion', 'subject', 'time'] as const;

function parseObject(envelope: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(envelope);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * The headers of a platform event record: `content-type`, `ce_id` (the event id, which the value
 * also carries) and each of `ce_type`, `ce_source`, `ce_specversion`, `ce_subject` and `ce_time`
 * the serialized envelope holds as a string. The value stays the authoritative event.
 */
export function cloudEventHeaders(id: string, envelope: string): Record<string, string> {
  const event = parseObject(envelope);
  const headers: Record<string, string> = { [CE_HEADERS.contentType]: CLOUDEVENTS_CONTENT_TYPE, [CE_HEADERS.id]: id };
  for (const name of ATTRIBUTES) {
    const value = event[name];
    if (typeof value === 'string') headers[CE_HEADERS[name]] = value;
  }
  return headers;
}

/** The event id a record's headers carry: `ce_id`, else the pre-binding `ce-id` of older records. */
export function eventIdFromHeaders(headers: Readonly<Record<string, string>> | undefined): string | undefined {
  return headers?.[CE_HEADERS.id] ?? headers?.[LEGACY_ID_HEADER];
}
