import { expect } from 'chai';
import {
  CLOUDEVENTS_CONTENT_TYPE,
  cloudEventHeaders,
  eventIdFromHeaders,
  LEGACY_ID_HEADER,
  buildEvent,
  deadLetterMessage,
} from '../src/bus/index.js';

const event = buildEvent(
  { source: 'attempt', type: 'attempt.graded.v1', subject: 'att-1', data: { attemptId: 'att-1' } },
  new Date('2026-11-21T08:00:00.000Z'),
  'evt-1',
);

describe('cloudEventHeaders (CloudEvents Kafka binding, structured mode)', () => {
  it('names the JSON event format in content-type and maps each string attribute to its ce_ header', () => {
    expect(cloudEventHeaders(event.id, JSON.stringify(event))).to.deep.equal({
      'content-type': 'application/cloudevents+json; charset=UTF-8',
      ce_id: 'evt-1',
      ce_type: 'attempt.graded.v1',
      ce_source: 'attempt',
      ce_specversion: '1.0',
      ce_subject: 'att-1',
      ce_time: '2026-11-21T08:00:00.000Z',
    });
  });

  it('never maps data or datacontenttype (the value carries them; content-type is the format)', () => {
    const headers = cloudEventHeaders(event.id, JSON.stringify(event));
    expect(Object.keys(headers).filter((h) => h.startsWith('ce_'))).to.have.members([
      'ce_id',
      'ce_type',
      'ce_source',
      'ce_specversion',
      'ce_subject',
      'ce_time',
    ]);
  });

  it('keeps content-type and ce_id when the stored value is not a JSON object', () => {
    expect(cloudEventHeaders('evt-2', 'not json')).to.deep.equal({
      'content-type': CLOUDEVENTS_CONTENT_TYPE,
      ce_id: 'evt-2',
    });
    expect(cloudEventHeaders('evt-3', '[1]')).to.deep.equal({
      'content-type': CLOUDEVENTS_CONTENT_TYPE,
      ce_id: 'evt-3',
    });
  });
});

describe('eventIdFromHeaders', () => {
  it('reads ce_id, falls back to the pre-binding ce-id of older records, and prefers ce_id when both exist', () => {
    expect(eventIdFromHeaders({ ce_id: 'a' })).to.equal('a');
    expect(eventIdFromHeaders({ [LEGACY_ID_HEADER]: 'b' })).to.equal('b');
    expect(eventIdFromHeaders({ ce_id: 'a', 'ce-id': 'b' })).to.equal('a');
    expect(eventIdFromHeaders({})).to.equal(undefined);
    expect(eventIdFromHeaders(undefined)).to.equal(undefined);
  });
});

describe('deadLetterMessage keeps the binding headers', () => {
  it('copies content-type and every ce_ header beside the x-dlq-* headers', () => {
    const headers = cloudEventHeaders(event.id, JSON.stringify(event));
    const copy = deadLetterMessage(
      {
        topic: 'attempt.graded.v1',
        partition: 2,
        offset: '41',
        groupId: 'analytics',
        key: 'att-1',
        value: JSON.stringify(event),
        headers,
      },
      { error: new Error('boom'), attempts: 5, now: new Date('2026-11-21T08:01:00.000Z') },
    );
    expect(copy.headers).to.include(headers);
    expect(copy.headers).to.include({
      'x-dlq-original-topic': 'attempt.graded.v1',
      'x-dlq-consumer-group': 'analytics',
    });
  });
});
