import { randomBytes } from 'node:crypto';
import { AppError } from '../../../kit/src/core/index.js';
import { isDuplicateKey } from '../../../kit/src/data/index.js';
import { USER_CHANGED_TOPIC, userChanged } from '../events.js';
import { MSG } from '../messages.js';
import type { UserRow } from '../store/models.js';
import { countAttempt } from '../store/throttle-store.js';
import { inOutboxTransaction } from '../store/transactions.js';
import {
  deleteRegistration,
  findMemberships,
  findUserById,
  insertMembership,
  insertUser,
} from '../store/user-store.js';
import type { AuthDeps } from './deps.js';
import { hashSecret } from './hashing.js';
import { bcryptInput } from './passwords.js';
import { prepareRefresh, sessionView, startFamily } from './sessions.js';
import { currentWindow, registrationKey, windowVerdict } from './throttle.js';
import type { SessionView } from './views.js';

export interface RegisterInput {
  email: string;
  password: string;
  fullName: string;
  phone?: string | null;
  role: 'STUDENT' | 'TEACHER' | 'PARENT';
}

const ACCOUNT_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `AC` + 10 Crockford base32 characters: readable aloud, no I/L/O/U ambiguity. */
export function accountCode(bytes: Buffer = randomBytes(10)): string {
  let out = 'AC';
  for (let i = 0; i < 10; i += 1) out += ACCOUNT_CODE_ALPHABET[(bytes[i] ?? 0) % 32];
  return out;
}

/** A new organization of its own for every self-registration: `org_` and 32 hex digits. */
export function personalOrganization(deps: AuthDeps, fullName: string): { id: string; name: string } {
  return { id: `org_${deps.newId().replace(/-/g, '')}`, name: `${fullName}'s workspace` };
}

/**
 * Counts the attempt against its client address before any bcrypt work: one client cannot spend
 * the hashing capacity everyone shares. Refused attempts count too (they keep the window full).
 */
async function assertRegistrationAllowed(deps: AuthDeps, clientAddress: string, now: Date): Promise<void> {
  const policy = deps.settings.registration;
  const window = currentWindow(registrationKey(clientAddress), policy.windowSeconds, now);
  const verdict = windowVerdict(await countAttempt(deps.models, window, now), policy.maxPerAddress, window, now);
  if (!verdict.allowed) {
    throw new AppError('RATE_LIMITED', MSG.tooManyRegistrations, {
      headers: { 'Retry-After': String(verdict.retryAfterSeconds) },
      details: { retryAfterSeconds: verdict.retryAfterSeconds },
    });
  }
}

/**
 * Creates the identity, its own new organization as its default membership (the chosen role,
 * there only), a session family and the first refresh token's hash in one transaction. The user document is written last and carries the
 * identity.user-changed.v1 stamp, so the event exists exactly when the whole registration does.
 * Without transactions the same writes run in order, and a failure part-way removes what was
 * written, so no half-registered user remains.
 */
export async function register(deps: AuthDeps, input: RegisterInput, clientAddress: string): Promise<SessionView> {
  const now = deps.clock();
  await assertRegistrationAllowed(deps, clientAddress, now);
  const userId = deps.newId();
  const membershipId = deps.newId();
  const org = personalOrganization(deps, input.fullName);
  const passwordHash = await hashSecret(deps.limiter, bcryptInput(input.password), deps.settings.bcryptCost);
  const refresh = await prepareRefresh(deps, userId, now);
  const membership = {
    _id: membershipId,
    userId,
    organizationId: org.id,
    organizationName: org.name,
    role: input.role,
    status: 'ACTIVE',
  };
  // Timestamps set here (mongoose keeps them) so the event states exactly what the row holds.
  const user: UserRow = {
    _id: userId,
    accountCode: accountCode(),
    email: input.email,
    ...(input.phone ? { phone: input.phone } : {}),
    fullName: input.fullName,
    role: input.role,
    status: 'ACTIVE',
    passwordHash,
    defaultOrganizationId: org.id,
    createdAt: now,
    updatedAt: now,
  };
  let sid = '';
  try {
    await inOutboxTransaction(deps.outbox, async (unit, tx) => {
      await insertMembership(deps.models, membership, tx);
      sid = await startFamily(deps, userId, refresh, tx);
      const event = userChanged('CREATED', { user, memberships: [{ ...membership, createdAt: now }] }, now);
      const stamp = unit.enqueue({ topic: USER_CHANGED_TOPIC, event, owner: deps.models.User, ownerId: userId });
      await insertUser(deps.models, { ...user, ...stamp.fields }, tx);
    });
  } catch (err) {
    if (!deps.db.transactions) await deleteRegistration(deps.models, userId).catch(() => undefined);
    throw conflictOr(err);
  }
  const stored = await findUserById(deps.models, userId);
  if (!stored) throw new Error('registered user vanished');
  const memberships = await findMemberships(deps.models, userId);
  return sessionView(deps, { user: stored, memberships }, { refreshToken: refresh.token, sid }, now);
}

function conflictOr(err: unknown): unknown {
  if (isDuplicateKey(err, 'email')) return new AppError('EMAIL_TAKEN', MSG.emailTaken);
  if (isDuplicateKey(err, 'phone')) return new AppError('PHONE_TAKEN', MSG.phoneTaken);
  return err;
}
