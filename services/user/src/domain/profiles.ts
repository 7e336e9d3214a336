import { AppError, type Actor } from '../../../kit/src/core/index.js';
import { isDuplicateKey } from '../../../kit/src/data/index.js';
import { MSG } from '../messages.js';
import type { ProfileRow } from '../store/models.js';
import { findProfile, updateAtRev, type ProfileChange } from '../store/profile-store.js';
import { assertOwnerOrAdmin, reaches } from './access.js';
import type { UserDeps } from './deps.js';
import { toProfileView, type ProfileView } from './views.js';

export interface BaseProfileInput {
  fullName: string;
  email?: string;
  /** null removes it (an empty string arrives here as null). */
  phone?: string | null;
  avatarUrl?: string | null;
}

export type RoleProfileKind = 'teacherProfile' | 'studentProfile' | 'parentProfile';

const MAX_ROUNDS = 8;

async function existing(deps: UserDeps, actor: Actor, userId: string): Promise<ProfileRow> {
  const row = await findProfile(deps.models, userId);
  if (!row || !reaches(actor, row)) throw new AppError('USER_NOT_FOUND', MSG.userNotFound, { details: { userId } });
  return row;
}

export async function getProfile(deps: UserDeps, actor: Actor, userId: string): Promise<ProfileView> {
  assertOwnerOrAdmin(actor, userId);
  return toProfileView(await existing(deps, actor, userId));
}

/** Strictly after the current version, so a local edit always outranks the snapshot it edits. */
function nextVersion(now: Date, current: Date): Date {
  return now.getTime() > current.getTime() ? now : new Date(current.getTime() + 1);
}

/**
 * Read, change, compare-and-set on the revision read, again when another writer came between:
 * concurrent edits of one profile never undo each other.
 */
async function changeProfile(
  deps: UserDeps,
  actor: Actor,
  userId: string,
  change: (row: ProfileRow) => ProfileChange,
): Promise<ProfileView> {
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const row = await existing(deps, actor, userId);
    const updated = await updateAtRev(deps.models, row, change(row)).catch((err: unknown) => {
      if (isDuplicateKey(err, 'email')) throw new AppError('EMAIL_TAKEN', MSG.emailTaken);
      if (isDuplicateKey(err, 'phone')) throw new AppError('PHONE_TAKEN', MSG.phoneTaken);
      throw err;
    });
    if (updated) return toProfileView(updated);
  }
  throw new AppError('PROFILE_CONFLICT', MSG.busy);
}

/** fullName, email, phone, avatarUrl; an omitted optional field stays as it is. */
export async function updateBaseProfile(
  deps: UserDeps,
  actor: Actor,
  userId: string,
  input: BaseProfileInput,
): Promise<ProfileView> {
  assertOwnerOrAdmin(actor, userId);
  return changeProfile(deps, actor, userId, (row) => {
    const set: Partial<ProfileRow> = { fullName: input.fullName, updatedAt: nextVersion(deps.clock(), row.updatedAt) };
    if (input.email !== undefined) set.email = input.email;
    if (input.avatarUrl !== undefined) set.avatarUrl = input.avatarUrl;
    if (input.phone) set.phone = input.phone;
    return { set, removePhone: input.phone === null };
  });
}

/**
 * Upsert of one role profile: the sent fields merge into the stored ones. The base version
 * (updatedAt) stays: a role profile is the user service's own, and an identity change from auth
 * made before this edit must still apply when it arrives after it.
 */
export async function upsertRoleProfile(
  deps: UserDeps,
  actor: Actor,
  target: { userId: string; kind: RoleProfileKind },
  fields: Record<string, unknown>,
): Promise<ProfileView> {
  assertOwnerOrAdmin(actor, target.userId);
  return changeProfile(deps, actor, target.userId, (row) => {
    const now = deps.clock();
    return { set: { [target.kind]: { ...(row[target.kind] ?? {}), ...fields, updatedAt: now } } };
  });
}
