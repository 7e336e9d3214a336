import type { ClientSession } from 'mongoose';
import { isDuplicateKey, type OutboxStamp } from '../../../kit/src/data/index.js';
import type { AlertStateRow, AnalyticsModels } from './models.js';

export function findAlertState(m: AnalyticsModels, id: string): Promise<AlertStateRow | null> {
  return m.AlertState.findById(id).lean<AlertStateRow>().exec();
}

export interface AlertWrite {
  expectedVersion: number;
  next: AlertStateRow;
  stamp?: OutboxStamp;
}

/**
 * Moves the alert state from `expectedVersion` to `next` in one single-document write that also
 * carries the event's stamp. False when another writer moved it first (the caller re-reads).
 */
export async function casAlertState(m: AnalyticsModels, w: AlertWrite, session?: ClientSession): Promise<boolean> {
  if (w.expectedVersion === 0) {
    try {
      await m.AlertState.create([{ ...w.next, ...(w.stamp?.fields ?? {}) }], { session });
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }
  const { _id, ...set } = w.next;
  const res = await m.AlertState.updateOne(
    { _id, version: w.expectedVersion },
    { $set: set, ...(w.stamp?.update ?? {}) },
    { session },
  ).exec();
  return res.matchedCount === 1;
}
