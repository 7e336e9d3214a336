import type { Actor } from '../../../kit/src/core/index.js';
import { revokeUserFamilies } from '../store/token-store.js';
import type { AuthDeps } from './deps.js';
import { assertPlatformAdmin } from './admin.js';
import { applyUserChange } from './user-changes.js';
import type { UserView } from './views.js';

export type AccountStatus = 'ACTIVE' | 'DISABLED';

/**
 * A platform admin enables or disables an account. Disabling ends every session of the user
 * (each shows up in the revocation feed, so the gateway drops the access tokens too); login then
 * answers 403 and refresh and me 401.
 */
export async function setAccountStatus(
  deps: AuthDeps,
  actor: Actor,
  userId: string,
  status: AccountStatus,
): Promise<UserView> {
  await assertPlatformAdmin(deps, actor);
  const view = await applyUserChange(deps, userId, { set: { status } });
  if (status === 'DISABLED') await revokeUserFamilies(deps.models, userId, 'account_disabled', deps.clock());
  return view;
}
