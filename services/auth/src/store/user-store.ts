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

export const findUserById = (m: AuthModels, id: string) => m.User.findById(id).lean<UserRow>().exec();

export const findMemberships = (m: AuthModels, userId: string) =>
  m.Membership.find({ userId }).sort({ createdAt: 1 }).lean<MembershipRow[]>().exec();

/** Undo for the no-transaction path: removes what a failed registration had written. */
export async function deleteRegistration(m: AuthModels, userId: string): Promise<void> {
  await m.RefreshToken.deleteMany({ userId });
  await m.TokenFamily.deleteMany({ userId });
  await m.Membership.deleteMany({ userId });
  await m.User.deleteOne({ _id: userId });
}
