import type { ServiceDefinition } from '../../kit/src/index.js';
import { buildApp, SERVICE_NAME } from './app.js';
import { assertProductionSafe, authConfigSchema, type AuthConfig } from './config.js';
import type { AuthDeps } from './domain/deps.js';
import { createAuthDeps } from './wiring.js';

/** The auth service as the kit starts it: main.ts runs it, tests start it in-process. */
export const authService: ServiceDefinition<AuthConfig, { app: ReturnType<typeof buildApp>; deps: AuthDeps }> = {
  name: SERVICE_NAME,
  configSchema: authConfigSchema,
  checkConfig: assertProductionSafe,
  async build({ config, logger, db, metrics, readiness }) {
    const deps = await createAuthDeps(db, config, logger, metrics);
    logger.info({ bcryptCost: config.AUTH_BCRYPT_COST }, 'auth settings');
    const app = buildApp(deps, {
      metrics,
      readiness,
      internalToken: config.INTERNAL_API_TOKEN,
      trustProxy: config.TRUST_PROXY,
    });
    return { app, deps };
  },
};
