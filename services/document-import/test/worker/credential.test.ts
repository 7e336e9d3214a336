import { expect } from 'chai';
import { loadConfig } from '../../../kit/src/core/index.js';
import { documentImportConfigSchema } from '../../src/config.js';
import { workerCredential } from '../../src/worker/credential.js';

describe('docx worker credential (pure)', () => {
  const load = (env: Record<string, string>) =>
    loadConfig(documentImportConfigSchema, { MONGODB_URI: 'mongodb://h/', KAFKA_BROKERS: 'k:9092', ...env });

  it('calls its peers with the worker token, not the internal one', () => {
    const config = workerCredential(load({ INTERNAL_API_TOKEN: 'i'.repeat(32), WORKER_API_TOKEN: 'w'.repeat(32) }));
    expect(config.INTERNAL_API_TOKEN).to.equal('w'.repeat(32));
  });

  it('falls back to the internal token where no worker token is configured', () => {
    expect(workerCredential(load({ INTERNAL_API_TOKEN: 'i'.repeat(32) })).INTERNAL_API_TOKEN).to.equal('i'.repeat(32));
  });

  it('refuses production without either', () => {
    expect(() => workerCredential(load({ NODE_ENV: 'production' }))).to.throw(/"WORKER_API_TOKEN" is required/);
    expect(() => workerCredential(load({ NODE_ENV: 'production', WORKER_API_TOKEN: 'w'.repeat(32) }))).to.not.throw();
  });
});
