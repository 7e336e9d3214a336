import { expect } from 'chai';
import { buildEvent } from '../../kit/src/bus/index.js';
import { alertOf } from '../src/consumer.js';
import { timeOrderedIds } from '../../kit/src/core/index.js';
import { ownerScope, parseData, sendDecision, uniqueIds } from '../src/domain/rules.js';
import { weakTopicContent } from '../src/domain/weak-topic.js';
import { inboxQuery } from '../src/store/notification-store.js';

const now = new Date('2026-01-01T00:00:00Z');
const later = new Date('2026-01-02T00:00:00Z');
const earlier = new Date('2025-12-31T00:00:00Z');

describe('notification rules (pure)', () => {
  describe('sendDecision', () => {
    it('sends without preferences and with an empty map', () => {
      expect(sendDecision(undefined, 'INFO', now)).to.equal('SEND');
      expect(sendDecision({ enabledTypes: {}, mutedUntil: null }, 'INFO', now)).to.equal('SEND');
    });
    it('is MUTED while mutedUntil is ahead, SEND once it passed (and at the exact instant)', () => {
      expect(sendDecision({ enabledTypes: {}, mutedUntil: later }, 'INFO', now)).to.equal('MUTED');
      expect(sendDecision({ enabledTypes: {}, mutedUntil: earlier }, 'INFO', now)).to.equal('SEND');
      expect(sendDecision({ enabledTypes: {}, mutedUntil: now }, 'INFO', now)).to.equal('SEND');
    });
    it('blocks only a type explicitly false', () => {
      const pref = { enabledTypes: { INFO: false, OTHER: true }, mutedUntil: null };
      expect(sendDecision(pref, 'INFO', now)).to.equal('TYPE_DISABLED');
      expect(sendDecision(pref, 'OTHER', now)).to.equal('SEND');
      expect(sendDecision(pref, 'NEW', now)).to.equal('SEND');
    });
  });

  it("ownerScope lets an organization's admin reach its own rows and that organization's, anyone else only their own", () => {
    expect(ownerScope({ userId: 'a', role: 'ADMIN', organizationId: 'o1' }, 'n1')).to.deep.equal({
      _id: 'n1',
      $or: [{ userId: 'a' }, { organizationId: 'o1' }],
    });
    expect(ownerScope({ userId: 'a', role: 'ADMIN' }, 'n1')).to.deep.equal({ _id: 'n1', userId: 'a' });
    expect(ownerScope({ userId: 'a', role: 'ADMIN', organizationId: 'o1', scope: 'self' }, 'n1')).to.deep.equal({
      _id: 'n1',
      userId: 'a',
    });
    expect(ownerScope({ userId: 's', role: 'STUDENT' }, 'n1')).to.deep.equal({ _id: 'n1', userId: 's' });
    expect(ownerScope({ userId: 't' }, 'n1')).to.deep.equal({ _id: 'n1', userId: 't' });
  });

  it('uniqueIds keeps first-seen order', () => {
    expect(uniqueIds(['b', 'a', 'b', 'c', 'a'])).to.deep.equal(['b', 'a', 'c']);
  });

  it('parseData reads stored JSON text and survives garbage', () => {
    expect(parseData('{"a":1}')).to.deep.equal({ a: 1 });
    expect(parseData('{')).to.deep.equal({});
    expect(parseData(undefined)).to.deep.equal({});
  });

  it('inboxQuery escapes q, so it is literal text, never a pattern', () => {
    const q = inboxQuery({ userId: 'u', filter: 'UNREAD', q: 'a.b*(c' });
    expect(q).to.include({ userId: 'u', isRead: false });
    const title = (q.$or as Array<{ title: RegExp }>)[0]!;
    expect(title.title.test('xA.B*(Cx')).to.equal(true);
    expect(title.title.test('aXbbc')).to.equal(false);
    expect(inboxQuery({ filter: 'SUPPORT' })).to.have.keys(['type']);
  });

  it('timeOrderedIds sort in creation order, also inside one millisecond', () => {
    const next = timeOrderedIds(() => 1000);
    const ids = Array.from({ length: 5000 }, () => next());
    expect([...ids].sort()).to.deep.equal(ids);
    expect(new Set(ids).size).to.equal(5000);
  });

  it('weakTopicContent names the exam and each topic with its accuracy', () => {
    const c = weakTopicContent({
      studentId: 's1',
      exam: { id: 'e1', title: 'Giữa kỳ' },
      topics: [{ topic: 'Hàm số', wrongCount: 3, attemptCount: 4, accuracy: 0.25 }],
    });
    expect(c.type).to.equal('WEAK_TOPIC_ALERT');
    expect(c.title).to.contain('Giữa kỳ');
    expect(c.body).to.contain('Hàm số (25%)');
    expect(c.data).to.deep.include({ studentId: 's1', examId: 'e1', attemptId: null });
  });

  it('alertOf accepts a catalogue event and refuses one without topics as poison', () => {
    const spec = { source: 'analytics', type: 'analytics.weak-topic-detected.v1', subject: 's1' };
    const good = buildEvent(
      {
        ...spec,
        data: {
          studentId: 's1',
          topics: [{ topic: 'T', wrongCount: 2, attemptCount: 2, accuracy: 0, shouldAlert: true }],
        },
      },
      now,
    );
    expect(alertOf(good).topics[0]).to.include({ topic: 'T', wrongCount: 2, attemptCount: 2, accuracy: 0 });
    const bad = buildEvent({ ...spec, data: { studentId: 's1', topics: [] } }, now);
    expect(() => alertOf(bad)).to.throw(/weak-topic event/);
    expect(() => alertOf({ ...good, type: 'attempt.graded.v1' })).to.throw(/not a weak-topic detection/);
  });
});
