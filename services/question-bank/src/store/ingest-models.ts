import type { Connection } from 'mongoose';

// Placeholder: the ingest part of issue 8 fills this in (its collections and unique indexes).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface IngestModels {}

export function ingestModels(_conn: Connection): IngestModels {
  return {};
}
