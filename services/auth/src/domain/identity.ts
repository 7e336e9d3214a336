import { AppError, verifyAccessToken } from '../../../kit/src/core/index.js';
import { MSG } from '../messages.js';
import { findFamily } from '../store/token-store.js';
import { findMemberships, findUserById } from '../store/user-store.js';
import type { AuthDeps } from './deps.js';
import { seconds } from './tokens.js';
import { toUserView, type UserView } from './views.js';

const invalidAccess = () =>
  new AppError('UNAUTHENTICATED', MSG.invalidAccess, {
    headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
  });

/**
 * The identity behind an access token, read fresh: a disabled account, or a session that was
 * logged out or revoked (the token's `sid`), stops at once, before the token expires.
 */
export async function currentIdentity(deps: AuthDeps, token: string | undefined): Promise<UserView> {
  if (!token) throw new AppError('UNAUTHENTICATED', MSG.accessRequired, { headers: { 'WWW-Authenticate': 'Bearer' } });
  const checked = verifyAccessToken(token, deps.settings.tokens.secret, seconds(deps.clock()));
  if (!checked.ok) throw invalidAccess();
  const { claims } = checked;
  const [user, family] = await Promise.all([
    findUserById(deps.models, claims.sub),
    findFamily(deps.models, claims.sid),
  ]);
  if (!user || user.status !== 'ACTIVE') throw invalidAccess();
  if (!family || family.revokedAt || family.userId !== user._id) throw invalidAccess();
  return toUserView(user, await findMemberships(deps.models, user._id));
}
