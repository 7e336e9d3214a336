import type { ClientSession } from 'mongoose';
import type { AuthModels, MembershipRow, UserRow } from './models.js';

/** Timestamps may be given (they are kept); `_outbox` carries an outbox stamp's fields. */
export type NewUser = Omit<UserRow, 'createdAt' | 'updatedAt'> &
  Partial<Pick<UserRow, 'createdAt' | 'updatedAt'>> & { _outbox?: unknown };
export type NewMembership = Omit<MembershipRow, 'createdAt'>;

export async function insertUser(m: AuthModels, user: NewUser, session?: ClientSession): Promise<void> {
  await m.User.create([user], { session });
}

export async function insertMembership(m: AuthModels, row: NewMembership, session?: ClientSession): Promise<void> {
  await m.Membership.create([row], { session });
}

export const findUserByEmail = (m: AuthModels, email: string) => m.User.findOne({ email }).lean<UserRow>().exec();

export const findUserById = (m: AuthModels, id: string, session?: ClientSession) =>
  m.User.findById(id)
    .session(session ?? null)
    .lean<UserRow>()
    .exec();

export const findMemberships = (m: AuthModels, userId: string, session?: ClientSession) =>
  m.Membership.find({ userId })
    .sort({ createdAt: 1, _id: 1 })
    .session(session ?? null)
    .lean<MembershipRow[]>()
    .exec();

export const findMembership = (m: AuthModels, userId: string, organizationId: string) =>
  m.Membership.findOne({ userId, organizationId }).lean<MembershipRow>().exec();

/** The name some membership of the organization already carries (organizations have no table here). */
export const findOrganizationName = async (m: AuthModels, organizationId: string) =>
  (await m.Membership.findOne({ organizationId }, { organizationName: 1 }).lean<MembershipRow>().exec())
    ?.organizationName;

/** Creates or changes one membership (the pair userId, organizationId is unique). */
export async function upsertMembership(
  m: AuthModels,
  row: NewMembership,
  session: ClientSession | undefined,
): Promise<void> {
  const { _id, ...fields } = row;
  await m.Membership.updateOne(
    { userId: row.userId, organizationId: row.organizationId },
    { $set: fields, $setOnInsert: { _id } },
    { upsert: true, session },
  ).exec();
}

export async function deleteMembership(
  m: AuthModels,
  userId: string,
  organizationId: string,
  session: ClientSession | undefined,
): Promise<void> {
  await m.Membership.deleteOne({ userId, organizationId }, { session }).exec();
}

/**
 * Writes a user change and its outbox stamp as one update, only over the version that was read
 * (`updatedAt`): a concurrent change makes this false and the caller starts again from a fresh read.
 */
export async function updateUserVersion(
  m: AuthModels,
  user: { id: string; seen: Date; next: Date },
  change: { set: Partial<Pick<UserRow, 'status'>>; stamp: object },
  session: ClientSession | undefined,
): Promise<boolean> {
  const res = await m.User.updateOne(
    { _id: user.id, updatedAt: user.seen },
    { $set: { ...change.set, updatedAt: user.next }, ...change.stamp },
    { session, timestamps: false },
  ).exec();
  return res.modifiedCount === 1;
}

/** Undo for the no-transaction path: removes what a failed registration had written. */
export async function deleteRegistration(m: AuthModels, userId: string): Promise<void> {
  await m.RefreshToken.deleteMany({ userId });
  await m.TokenFamily.deleteMany({ userId });
  await m.Membership.deleteMany({ userId });
  await m.User.deleteOne({ _id: userId });
}
