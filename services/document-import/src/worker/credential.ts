import { ConfigError } from '../../../kit/src/core/index.js';
import type { DocumentImportConfig } from '../config.js';

/**
 * The worker opens untrusted files, so it calls its peers with the narrower WORKER_API_TOKEN (the
 * question bank accepts it on the ingest route only); the platform-wide internal token is used only
 * where no worker token is configured, and production needs one of the two.
 */
export function workerCredential<C extends DocumentImportConfig>(config: C): C {
  const token = config.WORKER_API_TOKEN ?? config.INTERNAL_API_TOKEN;
  if (config.NODE_ENV === 'production' && !token) {
    throw new ConfigError('config: "WORKER_API_TOKEN" is required by the docx worker in production');
  }
  return { ...config, INTERNAL_API_TOKEN: token };
}
