import type { Express } from 'express';
import type { MongoHandle } from '../../kit/src/data/index.js';
import { startTestService } from '../../kit/test/support/harness.js';
import type { LogCapture } from '../../kit/test/support/log-capture.js';
import type { AuthConfig } from '../src/config.js';
import type { AuthDeps } from '../src/domain/deps.js';
import { authService } from '../src/service.js';

export interface TestAuth {
  app: Express;
  /** `http://127.0.0.1:<port>`: the service also listens, as it does in production. */
  url: string;
  deps: AuthDeps;
  db: MongoHandle;
  config: AuthConfig;
  logs: LogCapture;
  clear(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The real auth service, started as main.ts starts it, on the real test MongoDB, its own database
 * per test file. bcrypt cost 4 keeps tests quick; the benchmark measures the production cost.
 */
export async function startAuth(file: string, env: Record<string, string> = {}): Promise<TestAuth> {
  const svc = await startTestService(authService, {
    file,
    env: { AUTH_BCRYPT_COST: '4', AUTH_TOKEN_BCRYPT_COST: '4', ...env },
  });
  return {
    app: svc.app,
    url: svc.url,
    deps: svc.built.deps,
    db: svc.db,
    config: svc.config,
    logs: svc.logs,
    clear: () => svc.clearCollections(),
    close: () => svc.close(),
  };
}

let counter = 0;

/** A fresh, valid registration body; override any field. */
export function newUser(over: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  return {
    email: `student${counter}.${process.pid}@thpt-example.edu.vn`,
    password: 'Mật-khẩu-đủ-dài-1',
    fullName: 'Nguyễn Văn An',
    ...over,
  };
}
