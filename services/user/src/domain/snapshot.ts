import { AppError } from '../../../kit/src/core/index.js';
import { isDuplicateKey } from '../../../kit/src/data/index.js';
import { MSG } from '../messages.js';
import type { MembershipRow, ProfileRow, TeacherKycRow } from '../store/models.js';
import { findProfile, insertProfile, updateIfOlder, type ProfileChange } from '../store/profile-store.js';
import type { UserDeps } from './deps.js';
import { toProfileView, type ProfileView } from './views.js';

/** The validated snapshot body: public user fields only (anything else was dropped at the door). */
export interface SnapshotInput {
  id?: string;
  accountCode: string;
  email: string;
  fullName: string;
  role: string;
  status: string;
  phone?: string | null;
  avatarUrl?: string | null;
  defaultOrganizationId?: string | null;
  memberships?: MembershipRow[];
  createdAt?: Date;
  updatedAt: Date;
  teacherKyc?: (TeacherKycRow & { identityNumberHash?: string | null }) | null;
}

export interface SnapshotResult {
  /** False when the stored record is as new or newer: nothing was written. */
  applied: boolean;
  profile: ProfileView;
}

const MAX_ROUNDS = 4;

/** Named fields only: a password hash, a refresh token or any other sent field never reaches the store. */
function baseFields(s: SnapshotInput): Partial<ProfileRow> {
  const out: Partial<ProfileRow> = {
    accountCode: s.accountCode,
    email: s.email,
    fullName: s.fullName,
    role: s.role,
    status: s.status,
    updatedAt: s.updatedAt,
  };
  if (s.avatarUrl !== undefined) out.avatarUrl = s.avatarUrl;
  if (s.defaultOrganizationId !== undefined) out.defaultOrganizationId = s.defaultOrganizationId;
  if (s.memberships !== undefined) out.memberships = s.memberships;
  if (s.createdAt !== undefined) out.createdAt = s.createdAt;
  if (s.teacherKyc !== undefined) {
    const { identityNumberHash, ...safe } = s.teacherKyc ?? { identityNumberHash: null };
    out.teacherKyc = s.teacherKyc ? (safe as TeacherKycRow) : null;
    out.teacherKycIdentityHash = identityNumberHash ?? null;
  }
  return out;
}

function changeOf(s: SnapshotInput): ProfileChange {
  const set = baseFields(s);
  if (s.phone !== null && s.phone !== undefined) set.phone = s.phone;
  return { set, removePhone: s.phone === null };
}

function newRow(userId: string, s: SnapshotInput): ProfileRow {
  const defaults: ProfileRow = {
    _id: userId,
    accountCode: s.accountCode,
    email: s.email,
    fullName: s.fullName,
    role: s.role,
    status: s.status,
    avatarUrl: null,
    defaultOrganizationId: null,
    memberships: [],
    teacherProfile: null,
    studentProfile: null,
    parentProfile: null,
    teacherKyc: null,
    rev: 0,
    createdAt: s.createdAt ?? s.updatedAt,
    updatedAt: s.updatedAt,
  };
  const row: ProfileRow = { ...defaults, ...baseFields(s) };
  if (s.phone) row.phone = s.phone;
  return row;
}

function conflict(err: unknown): AppError | undefined {
  if (isDuplicateKey(err, 'email')) return new AppError('EMAIL_TAKEN', MSG.emailTaken);
  if (isDuplicateKey(err, 'phone')) return new AppError('PHONE_TAKEN', MSG.phoneTaken);
  return undefined;
}

async function tryApply(deps: UserDeps, userId: string, s: SnapshotInput): Promise<boolean | undefined> {
  try {
    if (await updateIfOlder(deps.models, userId, s.updatedAt, changeOf(s))) return true;
    if (await findProfile(deps.models, userId)) return false;
    await insertProfile(deps.models, newRow(userId, s));
    return true;
  } catch (err) {
    const refused = conflict(err);
    if (refused) throw refused;
    // Another writer inserted this user first: go round and compare versions with its row.
    if (isDuplicateKey(err)) return undefined;
    throw err;
  }
}

/**
 * Newer wins, atomically without transactions: the update matches only a stored version older
 * than the snapshot's user.updatedAt, so an old or replayed snapshot never overwrites a newer one.
 */
export async function upsertSnapshot(deps: UserDeps, userId: string, s: SnapshotInput): Promise<SnapshotResult> {
  if (s.id !== undefined && s.id !== userId) {
    throw new AppError('VALIDATION_ERROR', MSG.snapshotIdMismatch, {
      details: [{ path: 'id', message: MSG.snapshotIdMismatch }],
    });
  }
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const applied = await tryApply(deps, userId, s);
    if (applied === undefined) continue;
    const row = await findProfile(deps.models, userId);
    if (row) return { applied, profile: toProfileView(row) };
  }
  throw new AppError('PROFILE_CONFLICT', MSG.busy);
}
