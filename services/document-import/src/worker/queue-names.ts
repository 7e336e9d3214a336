import { ConfigError } from '../../../kit/src/core/index.js';

/**
 * The work queue as the code names it. The operator passes the DocxImportJob's PHYSICAL topic and
 * group (the chart applied the release's KAFKA_TOPIC_PREFIX); the worker's bus prefixes every name
 * like every other bus of the release, because the worker shares the document-import outbox with the
 * API: the events and re-enqueued work items it relays must land in the release's topics, not in
 * unprefixed ones. So the prefix is taken off here, once, and the bus puts it back on the wire.
 */
export function logicalQueue<C extends { DOCX_IMPORT_TOPIC: string; DOCX_IMPORT_CONSUMER_GROUP: string }>(
  config: C & { KAFKA_TOPIC_PREFIX?: string },
): C {
  const prefix = config.KAFKA_TOPIC_PREFIX ?? '';
  if (prefix === '') return config;
  const strip = (variable: string, name: string): string => {
    if (name.startsWith(prefix) && name.length > prefix.length) return name.slice(prefix.length);
    throw new ConfigError(
      `config: "${variable}" (${name}) does not start with the release's KAFKA_TOPIC_PREFIX (${prefix}): the DocxImportJob must name the release's physical topic and group`,
    );
  };
  return {
    ...config,
    DOCX_IMPORT_TOPIC: strip('DOCX_IMPORT_TOPIC', config.DOCX_IMPORT_TOPIC),
    DOCX_IMPORT_CONSUMER_GROUP: strip('DOCX_IMPORT_CONSUMER_GROUP', config.DOCX_IMPORT_CONSUMER_GROUP),
  };
}
