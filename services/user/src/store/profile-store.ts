import type { UpdateQuery } from 'mongoose';
import type { ProfileRow, UserModels } from './models.js';

export const findProfile = (m: UserModels, id: string) => m.Profile.findById(id).lean<ProfileRow>().exec();

export async function insertProfile(m: UserModels, row: ProfileRow): Promise<void> {
  await m.Profile.create([row]);
}

/** Applies `update` only when the stored version is older than `version`; true when it did. */
export async function updateIfOlder(
  m: UserModels,
  id: string,
  version: Date,
  update: UpdateQuery<ProfileRow>,
): Promise<boolean> {
  const r = await m.Profile.updateOne({ _id: id, updatedAt: { $lt: version } }, { ...update, $inc: { rev: 1 } }).exec();
  return r.matchedCount === 1;
}

/**
 * Compare-and-set on the version read before: null when another writer changed the row since
 * (the caller reads again and retries), the new row otherwise.
 */
export const updateAtRev = (m: UserModels, row: Pick<ProfileRow, '_id' | 'rev'>, update: UpdateQuery<ProfileRow>) =>
  m.Profile.findOneAndUpdate({ _id: row._id, rev: row.rev }, { ...update, $inc: { rev: 1 } }, { new: true })
    .lean<ProfileRow>()
    .exec();
