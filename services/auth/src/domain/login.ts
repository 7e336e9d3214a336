import { AppError } from '../../../kit/src/core/index.js';
import { MSG } from '../messages.js';
import { inTransaction } from '../store/transactions.js';
import { findMemberships, findUserByEmail } from '../store/user-store.js';
import type { AuthDeps } from './deps.js';
import { compareSecret } from './hashing.js';
import { admitLogin, recordLoginFailure, recordLoginSuccess } from './login-throttle.js';
import { bcryptInput } from './passwords.js';
import { prepareRefresh, sessionView, startFamily } from './sessions.js';
import { loginKeys } from './throttle.js';
import type { SessionView } from './views.js';

export interface LoginInput {
  email: string;
  password: string;
}

/**
 * Verifies e-mail and password. An unknown e-mail is compared against a dummy hash of the same
 * cost, so it fails exactly like a wrong password and takes the same time. Failures count per
 * (account, client address) pair, per client address and per account (see login-throttle.ts);
 * a key in backoff answers 429 with Retry-After before any hashing.
 */
export async function login(deps: AuthDeps, input: LoginInput, clientAddress: string): Promise<SessionView> {
  const now = deps.clock();
  const keys = loginKeys(input.email, clientAddress);
  const seen = await admitLogin(deps, keys, now).catch((err: unknown) => {
    deps.metrics.login('throttled');
    throw err;
  });
  const user = await findUserByEmail(deps.models, input.email);
  const matches = await compareSecret(deps.limiter, bcryptInput(input.password), user?.passwordHash ?? deps.dummyHash);
  if (!user || !matches) {
    await recordLoginFailure(deps, keys, seen, now);
    deps.metrics.login('invalid_credentials');
    throw new AppError('UNAUTHENTICATED', MSG.invalidCredentials);
  }
  if (user.status !== 'ACTIVE') {
    deps.metrics.login('disabled');
    throw new AppError('FORBIDDEN', MSG.accountDisabled);
  }
  await recordLoginSuccess(deps, keys, now);
  const refresh = await prepareRefresh(deps, user._id, now);
  const sid = await inTransaction(deps.db, (tx) => startFamily(deps, user._id, refresh, tx));
  deps.metrics.login('success');
  const memberships = await findMemberships(deps.models, user._id);
  return sessionView(deps, { user, memberships }, { refreshToken: refresh.token, sid }, now);
}
