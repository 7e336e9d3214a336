import { readFileSync } from 'node:fs';

export interface TopicSpec {
  name: string;
  producer: string;
  partitions: number;
  key: string;
  cleanupPolicy: 'delete' | 'compact';
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
  docxImportJobEvents: 'docx-import.job-events.v1',
} as const;

export type TopicName = (typeof TOPICS)[keyof typeof TOPICS];

export function topicSpec(name: TopicName): TopicSpec {
  const spec = TOPIC_CATALOGUE.find((t) => t.name === name);
  if (!spec) throw new Error(`topic ${name} is not in kafka/topics.json`);
  return spec;
}
