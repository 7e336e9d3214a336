import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { parse } from 'yaml';
import { definitionFiles, expectValidEvent, schemaTypes, validateEvent } from '../event-schemas.js';
import {
  deadLetterTopicOf,
  EVENT_TYPES,
  TOPIC_CATALOGUE,
  TOPICS,
  topicsProducedBy,
  type TopicName,
} from '../topics.js';
import { clone, INVALID_DATA, INVALID_ENVELOPE, VALID_EVENTS } from './examples.js';
import {
  CLOUDEVENTS_CONTENT_TYPE,
  cloudEventHeaders,
  DLQ_HEADERS,
  LEGACY_ID_HEADER,
} from '../../services/kit/src/bus/index.js';
import { analyticsConfigSchema } from '../../services/analytics/src/config.js';
import { documentImportConfigSchema } from '../../services/document-import/src/config.js';
import { notificationConfigSchema } from '../../services/notification/src/config.js';
import { userConfigSchema } from '../../services/user/src/config.js';

interface AsyncApiMessage {
  name?: string;
  contentType?: string;
  headers?: { $ref?: string };
  payload?: { $ref?: string };
}
interface AsyncApiChannel {
  address: string;
  messages: Record<string, { $ref: string }>;
  bindings?: { kafka?: { partitions?: number; topicConfiguration?: { 'cleanup.policy'?: string[] } } };
}
interface AsyncApiOperation {
  action: 'send' | 'receive';
  channel: { $ref: string };
  'x-service'?: string;
  bindings?: { kafka?: { groupId?: { enum?: string[] } } };
}
interface AsyncApi {
  asyncapi: string;
  channels: Record<string, AsyncApiChannel>;
  operations: Record<string, AsyncApiOperation>;
  components: {
    messages: Record<string, AsyncApiMessage>;
    schemas: Record<string, { $ref?: string; required?: string[]; properties?: Record<string, unknown> }>;
  };
}

const doc = parse(readFileSync(new URL('../asyncapi.yaml', import.meta.url), 'utf8')) as AsyncApi;
const local = (ref: string, prefix: string) => {
  expect(ref.startsWith(prefix), ref).to.equal(true);
  return ref.slice(prefix.length);
};
const readSchema = (type: string) =>
  JSON.parse(readFileSync(new URL(`../schemas/${type}.json`, import.meta.url), 'utf8')) as { title?: string };
/** The consumer groups topics.json names: one per consuming service of each topic. */
function consumerGroups(): Array<{ topic: string; service: string; group: string }> {
  const raw = JSON.parse(readFileSync(new URL('../topics.json', import.meta.url), 'utf8')) as {
    topics: Array<{ name: string; consumerGroups?: Record<string, string> }>;
  };
  return raw.topics.flatMap((t) =>
    Object.entries(t.consumerGroups ?? {}).map(([service, group]) => ({ topic: t.name, service, group })),
  );
}
const channelByAddress = (address: string) => Object.values(doc.channels).find((c) => c.address === address);

describe('event catalogue: kafka/topics.json, kafka/asyncapi.yaml and kafka/schemas agree', () => {
  it('is an AsyncAPI 3.0 document', () => {
    expect(doc.asyncapi).to.match(/^3\.0\.\d+$/);
  });

  it('every topic has a channel and every channel is a topic, with the same partitions and cleanup.policy', () => {
    const addresses = Object.values(doc.channels).map((c) => c.address);
    expect([...addresses].sort()).to.deep.equal(TOPIC_CATALOGUE.map((t) => t.name).sort());
    for (const t of TOPIC_CATALOGUE) {
      const kafka = channelByAddress(t.name)!.bindings?.kafka;
      expect(kafka?.partitions, t.name).to.equal(t.partitions);
      expect(kafka?.topicConfiguration?.['cleanup.policy'], t.name).to.deep.equal([t.cleanupPolicy]);
    }
  });

  it("every channel's messages are exactly the event types its topic declares", () => {
    for (const t of TOPIC_CATALOGUE) {
      const names = Object.values(channelByAddress(t.name)!.messages).map(
        (m) => doc.components.messages[local(m.$ref, '#/components/messages/')]?.name,
      );
      expect([...names].sort(), t.name).to.deep.equal([...t.events].sort());
    }
  });

  it('every message names its payload schema in components.schemas, whose file is used and titled alike', () => {
    const used = Object.entries(doc.components.messages).map(([id, m]) => {
      const name = local(m.payload?.$ref ?? '', '#/components/schemas/');
      const file = local(doc.components.schemas[name]?.$ref ?? '', './schemas/');
      expect(file, id).to.equal(`${m.name}.json`);
      expect(readSchema(m.name!).title, file).to.equal(name);
      return m.name!;
    });
    expect([...new Set(used)].sort()).to.deep.equal(schemaTypes());
    const declared = new Set(TOPIC_CATALOGUE.flatMap((t) => t.events));
    expect([...declared].sort()).to.deep.equal(schemaTypes());
    expect(Object.values(EVENT_TYPES).sort()).to.deep.equal(schemaTypes());
  });

  it('every message is a structured-mode CloudEvent whose headers are exactly those the outbox relay sets', () => {
    const sample = cloudEventHeaders('evt-1', JSON.stringify(VALID_EVENTS[EVENT_TYPES.attemptGraded]));
    for (const [id, m] of Object.entries(doc.components.messages)) {
      expect(m.contentType, id).to.equal('application/cloudevents+json');
      expect(m.headers?.$ref, id).to.equal('#/components/schemas/EventHeaders');
    }
    expect([...doc.components.schemas.EventHeaders!.required!].sort()).to.deep.equal(Object.keys(sample).sort());
    expect(sample['content-type']).to.equal(CLOUDEVENTS_CONTENT_TYPE);
    const documented = Object.keys(doc.components.schemas.EventHeaders!.properties ?? {});
    expect(documented).to.include.members([...Object.values(DLQ_HEADERS), LEGACY_ID_HEADER]);
  });

  it('every shared definition file is referenced by some event schema', () => {
    const texts = schemaTypes().map((t) => readFileSync(new URL(`../schemas/${t}.json`, import.meta.url), 'utf8'));
    for (const file of definitionFiles())
      expect(
        texts.some((s) => s.includes(`"${file}#`)),
        file,
      ).to.equal(true);
  });

  it('operations: the producer sends and each consumer receives, on existing channels', () => {
    const ops = Object.values(doc.operations).map((o) => ({
      action: o.action,
      service: o['x-service'],
      topic: doc.channels[local(o.channel.$ref, '#/channels/')]?.address,
    }));
    const expected = TOPIC_CATALOGUE.flatMap((t) => [
      { action: 'send', service: t.producer, topic: t.name },
      ...t.consumers.map((c) => ({ action: 'receive', service: c, topic: t.name })),
    ]);
    const key = (o: { action: string; service?: string; topic?: string }) => `${o.action} ${o.service} ${o.topic}`;
    expect(ops.map(key).sort()).to.deep.equal(expected.map(key).sort());
  });

  it("each receive operation's Kafka binding names the consumer group topics.json gives its service", () => {
    const groups = consumerGroups();
    for (const [id, o] of Object.entries(doc.operations).filter(([, x]) => x.action === 'receive')) {
      const topic = doc.channels[local(o.channel.$ref, '#/channels/')]!.address;
      const group = groups.find((g) => g.topic === topic && g.service === o['x-service']);
      expect(group, id).to.not.equal(undefined);
      expect(o.bindings?.kafka?.groupId?.enum, id).to.deep.equal([group!.group]);
    }
    const consumers = TOPIC_CATALOGUE.flatMap((t) => t.consumers.map((service) => `${t.name} ${service}`));
    expect(groups.map((g) => `${g.topic} ${g.service}`).sort()).to.deep.equal(consumers.sort());
  });

  it('the consumer groups are the real ones: each service config default and the chart value', () => {
    const configDefault = (schema: { describe(): unknown }, key: string) =>
      (schema.describe() as { keys: Record<string, { flags?: { default?: string } }> }).keys[key]?.flags?.default;
    const chart = parse(readFileSync(new URL('../../charts/edu-platform/values.yaml', import.meta.url), 'utf8')) as {
      docxImportJob: { queue: { consumerGroup: string } };
    };
    const real: Record<string, string | undefined> = {
      'docx-worker': configDefault(documentImportConfigSchema, 'DOCX_IMPORT_CONSUMER_GROUP'),
      user: configDefault(userConfigSchema, 'USER_EVENTS_GROUP'),
      analytics: configDefault(analyticsConfigSchema, 'ANALYTICS_CONSUMER_GROUP'),
      notification: configDefault(notificationConfigSchema, 'NOTIFICATION_CONSUMER_GROUP'),
    };
    expect(chart.docxImportJob.queue.consumerGroup).to.equal(real['docx-worker']);
    for (const g of consumerGroups()) expect(g.group, `${g.service} on ${g.topic}`).to.equal(real[g.service]);
  });

  it('every consumed topic has <topic>.dlq, produced by its consumer and carrying the same events', () => {
    for (const t of TOPIC_CATALOGUE.filter((x) => x.consumers.length > 0)) {
      const dlq = TOPIC_CATALOGUE.find((x) => x.name === deadLetterTopicOf(t.name as TopicName))!;
      expect(dlq.deadLetterOf).to.equal(t.name);
      expect(t.consumers).to.include(dlq.producer);
      expect(dlq.events).to.deep.equal(t.events);
      expect(topicsProducedBy(dlq.producer).map((x) => x.name)).to.include(dlq.name);
    }
    for (const d of TOPIC_CATALOGUE.filter((x) => x.deadLetterOf)) expect(d.name).to.equal(`${d.deadLetterOf}.dlq`);
  });

  it('the typed topic names are exactly the catalogue', () => {
    expect(Object.values(TOPICS).sort()).to.deep.equal(TOPIC_CATALOGUE.map((t) => t.name).sort());
  });
});

describe('event schemas: expectValidEvent', () => {
  it('has a valid example and invalid cases for every schema', () => {
    expect(Object.keys(VALID_EVENTS).sort()).to.deep.equal(schemaTypes());
    expect(Object.keys(INVALID_DATA).sort()).to.deep.equal(schemaTypes());
  });

  for (const type of Object.keys(VALID_EVENTS).sort()) {
    describe(type, () => {
      const valid = VALID_EVENTS[type]!;
      it('accepts the example, on its topic and on that topic’s DLQ', () => {
        const topic = TOPIC_CATALOGUE.find((t) => !t.deadLetterOf && t.events.includes(type))!;
        expectValidEvent(valid);
        expectValidEvent(valid, topic.name);
        for (const dlq of TOPIC_CATALOGUE.filter((t) => t.deadLetterOf === topic.name))
          expectValidEvent(valid, dlq.name);
      });
      for (const [name, mutate] of [...INVALID_DATA[type]!]) {
        it(`refuses ${name}`, () => {
          const e = clone(valid) as unknown as Record<string, unknown>;
          mutate(e.data as Record<string, unknown>);
          expect(validateEvent(e, undefined, { as: 'producer' }).valid).to.equal(false);
        });
      }
      for (const [name, mutate] of INVALID_ENVELOPE) {
        it(`refuses ${name}`, () => {
          const e = clone(valid) as unknown as Record<string, unknown>;
          mutate(e);
          expect(validateEvent(e, undefined, { as: 'producer' }).valid).to.equal(false);
        });
      }
    });
  }

  it('names every violation in the thrown error', () => {
    const e = clone(VALID_EVENTS[EVENT_TYPES.identityUserChanged]!) as unknown as Record<string, unknown>;
    (e.data as { user: Record<string, unknown> }).user.passwordHash = 'x';
    e.subject = 'u-2';
    expect(() => expectValidEvent(e)).to.throw(
      /must NOT have additional properties[\s\S]*subject must equal data\.userId/,
    );
  });

  it('refuses an event on a topic that does not carry its type, an unknown type and a non-object', () => {
    const graded = VALID_EVENTS[EVENT_TYPES.attemptGraded]!;
    expect(validateEvent(graded, TOPICS.docxImportJobEvents).errors).to.deep.equal([
      `topic ${TOPICS.docxImportJobEvents} does not carry attempt.graded.v1`,
    ]);
    expect(validateEvent({ ...graded, type: 'attempt.started.v1' }).errors[0]).to.match(/no schema/);
    expect(validateEvent('text').valid).to.equal(false);
  });
});
