import type { ClientSession } from 'mongoose';
import type { AuthModels, RefreshTokenRow, TokenFamilyRow } from './models.js';

export type NewRefreshToken = Omit<RefreshTokenRow, 'createdAt' | 'revokedAt' | 'revokedReason' | 'replacedBy'>;

export async function insertFamily(m: AuthModels, id: string, userId: string, session?: ClientSession): Promise<void> {
  await m.TokenFamily.create([{ _id: id, userId, revokedAt: null, revokedReason: null }], { session });
}

export async function insertRefreshToken(m: AuthModels, row: NewRefreshToken, session?: ClientSession): Promise<void> {
  await m.RefreshToken.create([{ ...row, revokedAt: null, revokedReason: null, replacedBy: null }], { session });
}

export const findRefreshToken = (m: AuthModels, jti: string) =>
  m.RefreshToken.findOne({ jti }).lean<RefreshTokenRow>().exec();

export const findFamily = (m: AuthModels, id: string) => m.TokenFamily.findById(id).lean<TokenFamilyRow>().exec();

/**
 * The single point where a refresh token is consumed: a conditional update on "not yet revoked",
 * so of any number of concurrent requests exactly one sees `true`.
 */
export async function consumeRefreshToken(
  m: AuthModels,
  jti: string,
  how: { reason: 'rotated' | 'logout'; now: Date; replacedBy?: string },
): Promise<boolean> {
  const res = await m.RefreshToken.updateOne(
    { jti, revokedAt: null },
    { $set: { revokedAt: how.now, revokedReason: how.reason, replacedBy: how.replacedBy ?? null } },
  ).exec();
  return res.modifiedCount === 1;
}

/** Kills one token that never reached a client (a refresh that lost the race to consume). */
export async function revokeRefreshToken(m: AuthModels, jti: string, reason: string, now: Date): Promise<void> {
  await m.RefreshToken.updateOne({ jti, revokedAt: null }, { $set: { revokedAt: now, revokedReason: reason } }).exec();
}

/** Ends a session: the family is marked first, so a token minted concurrently is dead on use. */
export async function revokeFamily(m: AuthModels, familyId: string, reason: string, now: Date): Promise<void> {
  await m.TokenFamily.updateOne(
    { _id: familyId, revokedAt: null },
    { $set: { revokedAt: now, revokedReason: reason } },
  ).exec();
  await m.RefreshToken.updateMany(
    { familyId, revokedAt: null },
    { $set: { revokedAt: now, revokedReason: reason } },
  ).exec();
}

/** Ends every live session of a user (account disabled, memberships changed): families first. */
export async function revokeUserFamilies(m: AuthModels, userId: string, reason: string, now: Date): Promise<number> {
  const res = await m.TokenFamily.updateMany(
    { userId, revokedAt: null },
    { $set: { revokedAt: now, revokedReason: reason } },
  ).exec();
  await m.RefreshToken.updateMany(
    { userId, revokedAt: null },
    { $set: { revokedAt: now, revokedReason: reason } },
  ).exec();
  return res.modifiedCount;
}

export type RevokedFamily = Pick<TokenFamilyRow, '_id' | 'userId'> & { revokedAt: Date };

/** Families revoked in `(since, until]`, oldest revocation first, at most `limit`. */
export const listRevokedFamilies = (m: AuthModels, since: Date, until: Date, limit: number) =>
  m.TokenFamily.find({ revokedAt: { $gt: since, $lte: until } }, { _id: 1, userId: 1, revokedAt: 1 })
    .sort({ revokedAt: 1, _id: 1 })
    .limit(limit)
    .lean<RevokedFamily[]>()
    .exec();

/** Every family revoked at exactly `at` (one millisecond is never split across feed pages). */
export const listRevokedAt = (m: AuthModels, at: Date) =>
  m.TokenFamily.find({ revokedAt: at }, { _id: 1, userId: 1, revokedAt: 1 })
    .sort({ _id: 1 })
    .lean<RevokedFamily[]>()
    .exec();
