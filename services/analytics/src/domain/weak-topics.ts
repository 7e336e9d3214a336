// Pure: the contract's weak-topic derivation (Limits) and the alert crossing decision.

/** Weak topics come from the first this-many matching results (newest first). */
export const WEAK_TOPIC_WINDOW = 100;
export const ALERT_MIN_WRONG = 2;
export const ALERT_MAX_ACCURACY = 0.6;

export interface TopicOccurrence {
  topic: string;
  topicId?: string | null;
}

export interface WeakTopic {
  topic: string;
  topicId: string | null;
  wrongCount: number;
  attemptCount: number;
  accuracy: number;
  shouldAlert: boolean;
}

export function accuracyOf(wrongCount: number, attemptCount: number): number {
  if (attemptCount <= 0) return 1;
  return Math.max(0, 1 - wrongCount / attemptCount);
}

export function shouldAlert(wrongCount: number, accuracy: number): boolean {
  return wrongCount >= ALERT_MIN_WRONG || accuracy < ALERT_MAX_ACCURACY;
}

/** The grouping key of an occurrence: its label, trimmed (labels are what the contract groups by). */
export function topicKey(o: TopicOccurrence): string {
  return o.topic.trim();
}

/**
 * Weak topics of results given newest first: only the first WEAK_TOPIC_WINDOW count; each topic
 * occurrence adds 1 to `wrongCount` and to `attemptCount`; `accuracy = max(0, 1 - wrong/attempts)`;
 * `shouldAlert` when `wrongCount >= 2` or `accuracy < 0.6`. Most wrong first, then by label.
 * `topicId` is the one of the newest occurrence that names one.
 */
export function deriveWeakTopics(results: ReadonlyArray<{ weakTopics: readonly TopicOccurrence[] }>): WeakTopic[] {
  const byKey = new Map<string, { topicId: string | null; count: number }>();
  for (const r of results.slice(0, WEAK_TOPIC_WINDOW)) {
    for (const o of r.weakTopics) {
      const key = topicKey(o);
      if (key === '') continue;
      const seen = byKey.get(key) ?? { topicId: null, count: 0 };
      seen.count += 1;
      seen.topicId ??= o.topicId ?? null;
      byKey.set(key, seen);
    }
  }
  const topics = [...byKey].map(([topic, s]) => {
    const accuracy = accuracyOf(s.count, s.count);
    return {
      topic,
      topicId: s.topicId,
      wrongCount: s.count,
      attemptCount: s.count,
      accuracy,
      ...alert(s.count, accuracy),
    };
  });
  return topics.sort((a, b) => b.wrongCount - a.wrongCount || compare(a.topic, b.topic));
}

const alert = (wrong: number, accuracy: number) => ({ shouldAlert: shouldAlert(wrong, accuracy) });
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export interface AlertDecision {
  /** Topics alerting now that were not alerting at the last evaluation: the event's topics. */
  crossing: WeakTopic[];
  /** The alerting set to remember (topics that stopped alerting leave it, so they can cross again). */
  alerting: string[];
  changed: boolean;
}

export function decideAlerts(previouslyAlerting: readonly string[], topics: readonly WeakTopic[]): AlertDecision {
  const before = new Set(previouslyAlerting);
  const now = topics.filter((t) => t.shouldAlert);
  const alerting = now.map((t) => t.topic).sort(compare);
  const crossing = now.filter((t) => !before.has(t.topic));
  const changed = crossing.length > 0 || alerting.length !== before.size;
  return { crossing, alerting, changed };
}
