import { Counter, type Registry } from 'prom-client';
import type { AuthMetrics } from './domain/deps.js';

/** prom-client counters behind the domain's AuthMetrics interface. */
export function authMetrics(registry: Registry): AuthMetrics {
  const logins = new Counter({
    name: 'auth_login_attempts_total',
    help: 'Login attempts by outcome (success, invalid_credentials, throttled, disabled)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const reuse = new Counter({
    name: 'auth_refresh_token_reuse_total',
    help: 'Refresh tokens presented again after rotation; each revoked its session',
    registers: [registry],
  });
  return {
    login: (outcome) => logins.inc({ outcome }),
    refreshReuse: () => reuse.inc(),
  };
}
