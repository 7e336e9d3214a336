import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'mocha';
import { testDbName, testMongoUri } from '../../../kit/test/support/servers.js';
import { startDocumentPeer, type BuiltDocumentPeer, type RunningPeer } from '../../../peers/src/index.js';
import { DocumentClient, MAX_FETCH_BYTES } from '../../src/integrations/index.js';

const SCOPE = { organizationId: 'org-a', userId: 'teacher-1' };

type Coded = Error & { code?: string; details?: Record<string, unknown> };

function hasCode(code: string) {
  return (err: Coded) => {
    assert.equal(err.code, code, err.message);
    return true;
  };
}

async function storeObject(peer: RunningPeer<BuiltDocumentPeer>, key: string, bytes: Buffer): Promise<void> {
  const res = await fetch(`${peer.url}/v1/storage/objects?key=${encodeURIComponent(key)}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
    body: bytes,
  });
  assert.equal(res.status, 200);
}

async function deadUrl(): Promise<string> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return url;
}

describe('document client against the document peer', () => {
  let peer: RunningPeer<BuiltDocumentPeer>;
  let client: DocumentClient;

  before(async () => {
    peer = await startDocumentPeer({
      mongoUri: testMongoUri(),
      dbName: testDbName('peer_documents', import.meta.url),
      dropDatabaseOnClose: true,
    });
    client = new DocumentClient({ baseUrl: peer.url });
  });
  after(async () => peer?.close());

  it('fetches the bytes stored under a storage key', async () => {
    const bytes = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(100_000, 7)]);
    await storeObject(peer, 'teacher/org-a/de-thi.docx', bytes);
    const got = await client.fetchObject('teacher/org-a/de-thi.docx', SCOPE);
    assert.equal(got.size, bytes.length);
    assert.ok(Buffer.compare(got.bytes, bytes) === 0);
    assert.match(got.contentType, /wordprocessingml/);
    assert.equal(MAX_FETCH_BYTES, 50 * 1024 * 1024);
  });

  it('an unknown key is 404 STORAGE_OBJECT_NOT_FOUND', async () => {
    await assert.rejects(client.fetchObject('nope/missing.docx'), hasCode('STORAGE_OBJECT_NOT_FOUND'));
  });

  it('refuses an object over the cap while reading it (413)', async () => {
    await storeObject(peer, 'teacher/org-a/big.docx', Buffer.alloc(70_000, 1));
    const small = new DocumentClient({ baseUrl: peer.url, maxBytes: 65_536 });
    await assert.rejects(small.fetchObject('teacher/org-a/big.docx'), hasCode('PAYLOAD_TOO_LARGE'));
    const exact = new DocumentClient({ baseUrl: peer.url, maxBytes: 70_000 });
    assert.equal((await exact.fetchObject('teacher/org-a/big.docx')).size, 70_000);
  });

  it('refuses a body streamed past the cap without a Content-Length', async () => {
    // A stand-in that streams chunks with no declared length, so only the running count can stop it.
    const server: Server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      for (let i = 0; i < 20; i++) res.write(Buffer.alloc(8192, i));
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const capped = new DocumentClient({ baseUrl: url, maxBytes: 100_000 });
      await assert.rejects(capped.fetchObject('any'), hasCode('PAYLOAD_TOO_LARGE'));
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('gives up on a document service that never answers (timeout → 503)', async () => {
    const hanging: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
      const impatient = new DocumentClient({ baseUrl: url, transferTimeoutMs: 300 });
      await assert.rejects(impatient.fetchObject('any'), (err: Coded) => {
        assert.equal(err.code, 'DEPENDENCY_UNAVAILABLE');
        assert.equal(err.details?.upstreamStatus, null);
        return true;
      });
    } finally {
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  });

  it('an unreachable document service is 503 DEPENDENCY_UNAVAILABLE', async () => {
    const down = new DocumentClient({ baseUrl: await deadUrl() });
    await assert.rejects(down.fetchObject('any'), hasCode('DEPENDENCY_UNAVAILABLE'));
    await assert.rejects(
      down.uploadMediaAsset({ bytes: Buffer.from('x'), fileName: 'a.png', contentType: 'image/png' }, SCOPE),
      hasCode('DEPENDENCY_UNAVAILABLE'),
    );
  });

  it('uploads a media asset owned by the organization and user, then streams its content', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(500, 3)]);
    const asset = await client.uploadMediaAsset(
      { bytes: png, fileName: 'image1.png', contentType: 'image/png' },
      SCOPE,
    );
    assert.equal(asset.contentUrl, `/api/storage/media-assets/${asset.id}/content`);
    const row = await peer.built.deps.models.MediaAsset.findById(asset.id).lean();
    assert.equal(row?.organizationId, 'org-a');
    assert.equal(row?.ownerId, 'teacher-1');
    const content = await client.openMediaContent(asset.id, SCOPE);
    assert.equal(content.contentType, 'image/png');
    assert.equal(content.contentLength, png.length);
    const chunks: Buffer[] = [];
    for await (const c of content.body) chunks.push(c as Buffer);
    assert.ok(Buffer.compare(Buffer.concat(chunks), png) === 0);
    await assert.rejects(
      client.openMediaContent(asset.id, { organizationId: 'org-b' }),
      hasCode('MEDIA_ASSET_NOT_FOUND'),
    );
  });

  it('an upstream refusal is 502 UPSTREAM_ERROR with the peer status, never the internal token', async () => {
    const noScope = new DocumentClient({ baseUrl: peer.url, internalToken: 'internal-secret-0123456789' });
    await assert.rejects(
      noScope.uploadMediaAsset(
        { bytes: Buffer.from('x'), fileName: 'a.png', contentType: 'image/png' },
        { organizationId: '' },
      ),
      (err: Coded) => {
        assert.equal(err.code, 'UPSTREAM_ERROR');
        assert.equal(err.details?.upstreamStatus, 400);
        assert.equal(err.details?.upstreamCode, 'VALIDATION_ERROR');
        assert.ok(!JSON.stringify({ m: err.message, d: err.details }).includes('internal-secret'));
        return true;
      },
    );
  });
});
