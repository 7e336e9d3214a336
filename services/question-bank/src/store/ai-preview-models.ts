import type { Connection } from 'mongoose';

// Placeholder: the ai-preview part of issue 8 fills this in (its collections and unique indexes).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AiPreviewModels {}

export function aiPreviewModels(_conn: Connection): AiPreviewModels {
  return {};
}
