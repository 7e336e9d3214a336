import type { UpdateQuery } from 'mongoose';
import type { ProfileRow, UserModels } from './models.js';

/** A change to a profile: fields to set, and whether the phone goes (it is unique when present). */
export interface ProfileChange {
  set: Partial<ProfileRow>;
  removePhone?: boolean;
}

/** The change as one update that also moves the revision on. */
function updateOf(change: ProfileChange): UpdateQuery<ProfileRow> {
  const update: UpdateQuery<ProfileRow> = { $set: change.set };
  if (change.removePhone) update.$unset = { phone: 1 };
  return { ...update, $inc: { rev: 1 } };
}

export const findProfile = (m: UserModels, id: string) => m.Profile.findById(id).lean<ProfileRow>().exec();

export async function insertProfile(m: UserModels, row: ProfileRow): Promise<void> {
  await m.Profile.create([row]);
}

/** Applies `change` only when the stored version is older than `version`; true when it did. */
export async function updateIfOlder(m: UserModels, id: string, version: Date, change: ProfileChange): Promise<boolean> {
  const r = await m.Profile.updateOne({ _id: id, updatedAt: { $lt: version } }, updateOf(change)).exec();
  return r.matchedCount === 1;
}

/**
 * Compare-and-set on the version read before: null when another writer changed the row since
 * (the caller reads again and retries), the new row otherwise.
 */
export const updateAtRev = (m: UserModels, row: Pick<ProfileRow, '_id' | 'rev'>, change: ProfileChange) =>
  m.Profile.findOneAndUpdate({ _id: row._id, rev: row.rev }, updateOf(change), { new: true }).lean<ProfileRow>().exec();
