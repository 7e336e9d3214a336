import { AppError, withTransaction } from '../../../kit/src/index.js';
import { MSG } from '../messages.js';
import { clearFailures, readWindows, recordFailure } from '../store/throttle-store.js';
import { findMemberships, findUserByEmail } from '../store/user-store.js';
import type { AuthDeps } from './deps.js';
import { compareSecret } from './hashing.js';
import { bcryptInput } from './passwords.js';
import { prepareRefresh, sessionView, startFamily } from './sessions.js';
import {
  accountKey,
  addressKey,
  currentWindow,
  strictest,
  throttleVerdict,
  type ThrottlePolicy,
  type WindowRef,
} from './throttle.js';
import type { SessionView } from './views.js';

export interface LoginInput {
  email: string;
  password: string;
}

/**
 * Verifies e-mail and password. An unknown e-mail is compared against a dummy hash of the same
 * cost, so it fails exactly like a wrong password and takes the same time. Failures count per
 * account and per client address; past the limit the answer is 429 with Retry-After.
 */
export async function login(deps: AuthDeps, input: LoginInput, clientAddress: string): Promise<SessionView> {
  const now = deps.clock();
  const account = limit(accountKey(input.email), deps.settings.perAccount, now);
  const limits = [account, limit(addressKey(clientAddress), deps.settings.perAddress, now)];
  await assertNotThrottled(deps, limits, now).catch((err: unknown) => {
    deps.metrics.login('throttled');
    throw err;
  });
  const user = await findUserByEmail(deps.models, input.email);
  const matches = await compareSecret(deps.limiter, bcryptInput(input.password), user?.passwordHash ?? deps.dummyHash);
  if (!user || !matches) {
    await Promise.all(limits.map((l) => recordFailure(deps.models, l.window)));
    deps.metrics.login('invalid_credentials');
    throw new AppError('UNAUTHENTICATED', MSG.invalidCredentials);
  }
  if (user.status !== 'ACTIVE') {
    deps.metrics.login('disabled');
    throw new AppError('FORBIDDEN', MSG.accountDisabled);
  }
  await clearFailures(deps.models, account.window);
  const refresh = await prepareRefresh(deps, user._id, now);
  await withTransaction(deps.db, (session) => startFamily(deps, user._id, refresh, session));
  deps.metrics.login('success');
  return sessionView(deps, { user, memberships: await findMemberships(deps.models, user._id) }, refresh.token, now);
}

interface Limit {
  window: WindowRef;
  policy: ThrottlePolicy;
}

function limit(key: string, policy: ThrottlePolicy, now: Date): Limit {
  return { window: currentWindow(key, policy, now), policy };
}

async function assertNotThrottled(deps: AuthDeps, limits: Limit[], now: Date): Promise<void> {
  const counts = await readWindows(
    deps.models,
    limits.map((l) => l.window),
  );
  const verdict = strictest(limits.map((l) => throttleVerdict(counts.get(l.window.id) ?? null, l.policy, now)));
  if (!verdict.allowed) {
    throw new AppError('RATE_LIMITED', MSG.tooManyAttempts, {
      headers: { 'Retry-After': String(verdict.retryAfterSeconds) },
      details: { retryAfterSeconds: verdict.retryAfterSeconds },
    });
  }
}
