import type { Logger } from '../../../kit/src/core/index.js';
import type { MongoHandle, Outbox } from '../../../kit/src/data/index.js';
import type { AuthModels } from '../store/models.js';
import type { TokenSettings } from './tokens.js';
import type { BackoffPolicy } from './throttle.js';
import type { WorkLimiter } from './work-limiter.js';

export interface AuthSettings {
  tokens: TokenSettings;
  bcryptCost: number;
  tokenBcryptCost: number;
  /** A consumed refresh token presented again within this many seconds is a race, not a replay. */
  refreshReuseGraceSeconds: number;
  login: {
    pair: BackoffPolicy;
    address: BackoffPolicy;
    account: BackoffPolicy;
    /** How long a successful login's address stays exempt from the account-wide backoff (0: never). */
    knownAddressSeconds: number;
  };
  /** Registrations per client address in a fixed window, counted before any hashing. */
  registration: { maxPerAddress: number; windowSeconds: number };
  /** An ADMIN membership in this organization makes a platform admin. */
  platformOrganizationId: string;
  /** The revocation feed's `until` stays this far behind now (writes in flight are never skipped). */
  revocationFeedLagMs: number;
}

export type LoginOutcome = 'success' | 'invalid_credentials' | 'throttled' | 'disabled';

/** What operators watch for attacks: failed and throttled logins, replayed refresh tokens. */
export interface AuthMetrics {
  login(outcome: LoginOutcome): void;
  refreshReuse(): void;
}

/** Everything a use case needs, injected at the edge (main.ts or a test). */
export interface AuthDeps {
  db: MongoHandle;
  models: AuthModels;
  /** Carries identity.user-changed.v1 inside the user write. */
  outbox: Outbox;
  settings: AuthSettings;
  /** Bounds concurrent bcrypt work; a full queue or a long wait is a 429, not a pile-up. */
  limiter: WorkLimiter;
  /** A bcrypt hash of a random secret at the password cost: unknown e-mails compare against it. */
  dummyHash: string;
  clock: () => Date;
  newId: () => string;
  logger: Logger;
  metrics: AuthMetrics;
}
