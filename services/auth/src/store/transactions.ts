import type { ClientSession } from 'mongoose';
import { withTransaction, type MongoHandle, type Outbox, type OutboxUnit } from '../../../kit/src/data/index.js';

/**
 * An open store transaction, handed back to the store's reads and writes so they join it; absent
 * when the server runs without transactions. Domain code passes it on and never looks inside.
 */
export type StoreTx = ClientSession | undefined;

/** Runs `fn` in one store transaction (or its writes in order where the server has none). */
export function inTransaction<T>(db: MongoHandle, fn: (tx: StoreTx) => Promise<T>): Promise<T> {
  return withTransaction(db, fn);
}

/** Runs `fn` as one outbox unit of work inside one store transaction: the events and the writes land together. */
export function inOutboxTransaction<T>(outbox: Outbox, fn: (unit: OutboxUnit, tx: StoreTx) => Promise<T>): Promise<T> {
  return outbox.transaction(fn);
}
