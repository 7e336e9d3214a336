import { readFileSync } from 'node:fs';

export interface TopicSpec {
  name: string;
  /** The service that writes it (for a dead-letter topic: the consumer whose failures land there). */
  producer: string;
  /** Platform services that consume it, each with a `<topic>.dlq` declared beside it. */
  consumers: string[];
  /** Set on a dead-letter topic: the topic whose failed messages it keeps. */
  deadLetterOf?: string;
  partitions: number;
  /** The data field that is the Kafka key and the event's subject. */
  key: string;
  cleanupPolicy: 'delete' | 'compact';
  /** Event types it carries; each has kafka/schemas/<type>.json. */
  events: string[];
  description: string;
}

const catalogueUrl = new URL('./topics.json', import.meta.url);

/** The catalogue, read once. Works from sources (tsx) and from dist/ (the JSON is copied beside it). */
export const TOPIC_CATALOGUE: readonly TopicSpec[] = Object.freeze(
  (JSON.parse(readFileSync(catalogueUrl, 'utf8')) as { topics: TopicSpec[] }).topics,
);

/** Typed topic names: code uses these, never a string literal. */
export const TOPICS = {
  searchProjectionChanged: 'search.projection.changed.v1',
  docxImportJobs: 'docx-import.jobs.v1',
  docxImportJobsDlq: 'docx-import.jobs.v1.dlq',
  docxImportJobEvents: 'docx-import.job-events.v1',
  identityUserChanged: 'identity.user-changed.v1',
  identityUserChangedDlq: 'identity.user-changed.v1.dlq',
  attemptGraded: 'attempt.graded.v1',
  attemptGradedDlq: 'attempt.graded.v1.dlq',
  analyticsWeakTopicDetected: 'analytics.weak-topic-detected.v1',
  analyticsWeakTopicDetectedDlq: 'analytics.weak-topic-detected.v1.dlq',
} as const;

export type TopicName = (typeof TOPICS)[keyof typeof TOPICS];

/** Typed event types (the envelope's `type`): builders use these, never a string literal. */
export const EVENT_TYPES = {
  searchProjectionChanged: 'search.projection.changed.v1',
  docxImportJobRequested: 'docx-import.job.requested.v1',
  docxImportJobQueued: 'docx-import.job.queued.v1',
  docxImportJobStarted: 'docx-import.job.started.v1',
  docxImportJobCompleted: 'docx-import.job.completed.v1',
  docxImportJobFailed: 'docx-import.job.failed.v1',
  docxImportReviewUpdated: 'docx-import.review.updated.v1',
  docxImportApprovalCompleted: 'docx-import.approval.completed.v1',
  docxImportAutoApprovalCompleted: 'docx-import.auto_approval.completed.v1',
  docxImportAutoApprovalFailed: 'docx-import.auto_approval.failed.v1',
  identityUserChanged: 'identity.user-changed.v1',
  attemptGraded: 'attempt.graded.v1',
  analyticsWeakTopicDetected: 'analytics.weak-topic-detected.v1',
} as const;

export type EventType = (typeof EVENT_TYPES)[keyof typeof EVENT_TYPES];

export function topicSpec(name: TopicName): TopicSpec {
  const spec = TOPIC_CATALOGUE.find((t) => t.name === name);
  if (!spec) throw new Error(`topic ${name} is not in kafka/topics.json`);
  return spec;
}

/** The dead-letter topic of a consumed topic, as the kit's consumers name it. */
export function deadLetterTopicOf(name: TopicName): TopicName {
  const dlq = `${name}.dlq`;
  if (!TOPIC_CATALOGUE.some((t) => t.deadLetterOf === name && t.name === dlq))
    throw new Error(`topic ${name} has no dead-letter topic in kafka/topics.json`);
  return dlq as TopicName;
}

/** What a service creates at start: the topics it produces, including the DLQs of what it consumes. */
export function topicsProducedBy(service: string): TopicSpec[] {
  return TOPIC_CATALOGUE.filter((t) => t.producer === service);
}

/** The topic that carries an event type (a dead-letter topic is never the home of a type). */
export function topicOfEvent(type: string): TopicSpec | undefined {
  return TOPIC_CATALOGUE.find((t) => !t.deadLetterOf && t.events.includes(type));
}
