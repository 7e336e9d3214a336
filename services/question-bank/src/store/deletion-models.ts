import type { Connection } from 'mongoose';

// Placeholder: the deletion part of issue 8 fills this in (its collections and unique indexes).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DeletionModels {}

export function deletionModels(_conn: Connection): DeletionModels {
  return {};
}
