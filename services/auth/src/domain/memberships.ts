import { AppError, type Actor } from '../../../kit/src/core/index.js';
import { MSG } from '../messages.js';
import { revokeUserFamilies } from '../store/token-store.js';
import {
  deleteMembership,
  findMembership,
  findMemberships,
  findOrganizationName,
  findUserById,
  upsertMembership,
} from '../store/user-store.js';
import type { MembershipRow, UserRow } from '../store/models.js';
import type { AuthDeps } from './deps.js';
import { assertOrganizationAdmin } from './admin.js';
import { MAX_MEMBERSHIP_CLAIMS } from './tokens.js';
import { applyUserChange } from './user-changes.js';
import { toUserView, type UserView } from './views.js';

export interface GrantInput {
  role: 'STUDENT' | 'TEACHER' | 'PARENT' | 'ADMIN';
  organizationName?: string;
}

export interface MembershipRef {
  organizationId: string;
  userId: string;
}

async function targetUser(deps: AuthDeps, userId: string): Promise<UserRow> {
  const user = await findUserById(deps.models, userId);
  if (!user) throw new AppError('USER_NOT_FOUND', MSG.userNotFound);
  return user;
}

/** The name the organization's memberships already carry; its id for a new organization. */
async function organizationName(deps: AuthDeps, ref: MembershipRef): Promise<string> {
  return (await findOrganizationName(deps.models, ref.organizationId)) ?? ref.organizationId;
}

function sameGrant(m: MembershipRow, role: string, name: string): boolean {
  return m.role === role && m.organizationName === name && m.status === 'ACTIVE';
}

/** Every membership fits in the token's claims. */
async function assertRoomForOne(deps: AuthDeps, userId: string): Promise<void> {
  if ((await findMemberships(deps.models, userId)).length >= MAX_MEMBERSHIP_CLAIMS) {
    throw new AppError('MEMBERSHIP_CONFLICT', MSG.membershipLimit);
  }
}

/**
 * An admin's grant: the user joins the organization with the role, or the role there changes.
 * A changed role ends the user's sessions (their tokens carry the old role); a new membership does
 * not (the next refresh carries it). The same grant again changes nothing.
 */
export async function grantMembership(
  deps: AuthDeps,
  actor: Actor,
  ref: MembershipRef,
  input: GrantInput,
): Promise<UserView> {
  await assertOrganizationAdmin(deps, actor, ref.organizationId);
  const user = await targetUser(deps, ref.userId);
  const existing = await findMembership(deps.models, ref.userId, ref.organizationId);
  const name = input.organizationName ?? existing?.organizationName ?? (await organizationName(deps, ref));
  if (existing && sameGrant(existing, input.role, name)) {
    return toUserView(user, await findMemberships(deps.models, ref.userId));
  }
  if (!existing) await assertRoomForOne(deps, ref.userId);
  const row = { _id: deps.newId(), ...ref, organizationName: name, role: input.role, status: 'ACTIVE' };
  const view = await applyUserChange(deps, ref.userId, {
    write: (tx) => upsertMembership(deps.models, row, tx),
  });
  if (existing && existing.role !== input.role) {
    await revokeUserFamilies(deps.models, ref.userId, 'membership_changed', deps.clock());
  }
  return view;
}

/** An admin's removal: the membership goes and the user's sessions end (their tokens name it). */
export async function removeMembership(deps: AuthDeps, actor: Actor, ref: MembershipRef): Promise<UserView> {
  await assertOrganizationAdmin(deps, actor, ref.organizationId);
  const user = await targetUser(deps, ref.userId);
  if (!(await findMembership(deps.models, ref.userId, ref.organizationId))) {
    throw new AppError('MEMBERSHIP_NOT_FOUND', MSG.membershipNotFound);
  }
  if (user.defaultOrganizationId === ref.organizationId) {
    throw new AppError('MEMBERSHIP_CONFLICT', MSG.defaultMembership);
  }
  const view = await applyUserChange(deps, ref.userId, {
    write: (tx) => deleteMembership(deps.models, ref.userId, ref.organizationId, tx),
  });
  await revokeUserFamilies(deps.models, ref.userId, 'membership_removed', deps.clock());
  return view;
}
