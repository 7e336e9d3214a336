import { AppError } from '../../../kit/src/index.js';
import { MSG } from '../messages.js';
import { findMemberships, findUserById } from '../store/user-store.js';
import type { AuthDeps } from './deps.js';
import { verifyAccessToken } from './tokens.js';
import { toUserView, type UserView } from './views.js';

/** The identity behind an access token, read fresh so a disabled account stops at once. */
export async function currentIdentity(deps: AuthDeps, token: string | undefined): Promise<UserView> {
  if (!token) throw new AppError('UNAUTHENTICATED', MSG.accessRequired, { headers: { 'WWW-Authenticate': 'Bearer' } });
  const claims = verifyAccessToken(token, deps.settings.tokens.secret, deps.clock());
  if (!claims)
    throw new AppError('UNAUTHENTICATED', MSG.invalidAccess, {
      headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
    });
  const user = await findUserById(deps.models, claims.sub);
  if (!user || user.status !== 'ACTIVE') throw new AppError('UNAUTHENTICATED', MSG.invalidAccess);
  return toUserView(user, await findMemberships(deps.models, user._id));
}
