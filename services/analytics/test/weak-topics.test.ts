import { expect } from 'chai';
import {
  accuracyOf,
  decideAlerts,
  deriveWeakTopics,
  shouldAlert,
  WEAK_TOPIC_WINDOW,
  type WeakTopic,
} from '../src/domain/weak-topics.js';

const result = (...topics: string[]) => ({ weakTopics: topics.map((topic) => ({ topic })) });

describe('analytics weak topics (pure)', () => {
  describe('accuracyOf', () => {
    it('is 1 - wrong/attempts', () => {
      expect(accuracyOf(1, 4)).to.equal(0.75);
      expect(accuracyOf(3, 5)).to.be.closeTo(0.4, 1e-12);
    });
    it('never goes below 0', () => {
      expect(accuracyOf(7, 3)).to.equal(0);
    });
    it('is 1 when there were no attempts (no division by zero)', () => {
      expect(accuracyOf(0, 0)).to.equal(1);
    });
  });

  describe('shouldAlert', () => {
    it('alerts at two wrong answers whatever the accuracy', () => {
      expect(shouldAlert(2, 0.9)).to.equal(true);
      expect(shouldAlert(1, 0.9)).to.equal(false);
    });
    it('alerts below 0.6 accuracy, not at 0.6', () => {
      expect(shouldAlert(1, 0.59)).to.equal(true);
      expect(shouldAlert(1, 0.6)).to.equal(false);
    });
  });

  describe('deriveWeakTopics', () => {
    it('adds 1 to wrongCount and attemptCount per occurrence, across and within results', () => {
      const topics = deriveWeakTopics([result('Hàm số', 'Hàm số'), result('Hàm số', 'Xác suất')]);
      expect(topics.map((t) => [t.topic, t.wrongCount, t.attemptCount])).to.deep.equal([
        ['Hàm số', 3, 3],
        ['Xác suất', 1, 1],
      ]);
    });
    it('gives accuracy 0 and shouldAlert true to every listed topic, as the formula implies', () => {
      for (const t of deriveWeakTopics([result('A'), result('B', 'B')])) {
        expect(t.accuracy).to.equal(0);
        expect(t.shouldAlert).to.equal(true);
      }
    });
    it('uses only the first 100 results', () => {
      const rows = [...Array.from({ length: WEAK_TOPIC_WINDOW }, () => result('in')), result('out'), result('out')];
      const topics = deriveWeakTopics(rows);
      expect(topics.map((t) => t.topic)).to.deep.equal(['in']);
      expect(topics[0]!.wrongCount).to.equal(100);
    });
    it('groups by the trimmed label, case-sensitively, and skips blank labels', () => {
      const topics = deriveWeakTopics([result(' Đạo hàm ', 'Đạo hàm', 'đạo hàm', '   ')]);
      expect(topics.map((t) => [t.topic, t.wrongCount])).to.deep.equal([
        ['Đạo hàm', 2],
        ['đạo hàm', 1],
      ]);
    });
    it('sorts by wrongCount descending, then by label', () => {
      const topics = deriveWeakTopics([result('c', 'b', 'a', 'c')]);
      expect(topics.map((t) => t.topic)).to.deep.equal(['c', 'a', 'b']);
    });
    it('takes the topicId of the newest occurrence that names one', () => {
      const rows = [
        { weakTopics: [{ topic: 'T', topicId: null }] },
        { weakTopics: [{ topic: 'T', topicId: 'new' }] },
        { weakTopics: [{ topic: 'T', topicId: 'old' }] },
      ];
      expect(deriveWeakTopics(rows)[0]!.topicId).to.equal('new');
    });
    it('is empty without occurrences', () => {
      expect(deriveWeakTopics([])).to.deep.equal([]);
      expect(deriveWeakTopics([result()])).to.deep.equal([]);
    });
  });

  describe('decideAlerts', () => {
    const topic = (name: string, alert = true): WeakTopic => ({
      topic: name,
      topicId: null,
      wrongCount: alert ? 2 : 1,
      attemptCount: alert ? 2 : 4,
      accuracy: alert ? 0 : 0.75,
      shouldAlert: alert,
    });

    it('announces topics alerting now that were not alerting before', () => {
      const d = decideAlerts(['A'], [topic('A'), topic('B')]);
      expect(d.crossing.map((t) => t.topic)).to.deep.equal(['B']);
      expect(d.alerting).to.deep.equal(['A', 'B']);
      expect(d.changed).to.equal(true);
    });
    it('announces nothing when the same topics alert again (the same crossing is never announced twice)', () => {
      const d = decideAlerts(['A', 'B'], [topic('B'), topic('A')]);
      expect(d.crossing).to.deep.equal([]);
      expect(d.changed).to.equal(false);
    });
    it('ignores topics that do not alert', () => {
      const d = decideAlerts([], [topic('A', false)]);
      expect(d).to.deep.equal({ crossing: [], alerting: [], changed: false });
    });
    it('forgets topics that stopped alerting, so they can cross again', () => {
      const d = decideAlerts(['A', 'B'], [topic('B')]);
      expect(d).to.deep.include({ alerting: ['B'], changed: true });
      expect(d.crossing).to.deep.equal([]);
      expect(decideAlerts(d.alerting, [topic('A'), topic('B')]).crossing.map((t) => t.topic)).to.deep.equal(['A']);
    });
  });
});
