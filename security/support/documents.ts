// A document service peer beside the stack (DOCX Fast jobs fetch their file from it), and a DOCX
// stored in it for one school, as the document service's own upload would leave it.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { startDocumentPeer, type RunningPeer } from '../../services/peers/src/index.js';
import { simpleDocx } from '../../services/document-import/test/api/support.js';
import { testDbName, testMongoUri } from '../../services/kit/test/support/servers.js';
import { call } from './http.js';
import type { Stack } from './stack.js';

export async function documentPeer(stack: Stack, file: string): Promise<RunningPeer<unknown>> {
  return (await startDocumentPeer({
    mongoUri: testMongoUri(),
    dbName: testDbName(`peer_documents_${randomUUID().slice(0, 6)}`, file),
    port: 0,
    internalToken: stack.secrets.internal,
    dropDatabaseOnClose: true,
  })) as RunningPeer<unknown>;
}

/** Stores a small two-question DOCX under `key` for `organizationId`. */
export async function storeDocx(
  stack: Stack,
  peer: RunningPeer<unknown>,
  key: string,
  organizationId: string,
): Promise<void> {
  const stored = await call(`${peer.url}/v1/storage/objects?key=${encodeURIComponent(key)}`, {
    method: 'PUT',
    headers: {
      'X-Internal-Token': stack.secrets.internal,
      'X-Organization-Id': organizationId,
      'Content-Type': 'application/octet-stream',
    },
    body: await simpleDocx(),
  });
  expect(stored.status, stored.text).to.equal(200);
}
