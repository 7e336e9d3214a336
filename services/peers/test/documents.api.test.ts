import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'mocha';
import supertest from 'supertest';
import { testDbName, testMongoUri } from '../../kit/test/support/servers.js';
import { MAX_OBJECT_BYTES, startDocumentPeer, type BuiltDocumentPeer, type RunningPeer } from '../src/index.js';

const ORG = { 'X-Organization-Id': 'org-a', 'X-User-Id': 'teacher-1' };

async function gridFileCount(peer: RunningPeer<BuiltDocumentPeer>): Promise<number> {
  return peer.db.conn.collection('objects.files').countDocuments({});
}

describe('peer document service', () => {
  let peer: RunningPeer<BuiltDocumentPeer>;
  let http: ReturnType<typeof supertest>;

  before(async () => {
    peer = await startDocumentPeer({
      mongoUri: testMongoUri(),
      dbName: testDbName('peer_documents', import.meta.url),
      dropDatabaseOnClose: true,
    });
    http = supertest(peer.url);
  });
  after(async () => peer?.close());

  it('stores bytes under a generated key and returns them by key with their content type', async () => {
    const bytes = randomBytes(300_000);
    const put = await http
      .post('/v1/storage/objects?fileName=exam.docx')
      .set('Content-Type', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document')
      .send(bytes);
    assert.equal(put.status, 201);
    assert.match(put.body.data.key, /^uploads\/\d{4}-\d{2}-\d{2}\/[0-9a-f-]{36}\/exam\.docx$/);
    assert.equal(put.body.data.size, bytes.length);
    const got = await bytesOf(`${peer.url}/v1/storage/objects/content?key=${encodeURIComponent(put.body.data.key)}`);
    assert.equal(got.status, 200);
    assert.match(got.contentType ?? '', /wordprocessingml/);
    assert.ok(Buffer.compare(got.body, bytes) === 0);
  });

  it('replaces the bytes of a given key and removes the old GridFS file', async () => {
    const key = `tests/${Date.now()}/replace.docx`;
    const before = await gridFileCount(peer);
    assert.equal(
      (
        await http
          .put('/v1/storage/objects')
          .query({ key })
          .set('Content-Type', 'application/octet-stream')
          .send(Buffer.from('first'))
      ).status,
      200,
    );
    assert.equal(
      (
        await http
          .put('/v1/storage/objects')
          .query({ key })
          .set('Content-Type', 'application/octet-stream')
          .send(Buffer.from('second!'))
      ).status,
      200,
    );
    const got = await bytesOf(`${peer.url}/v1/storage/objects/content?key=${encodeURIComponent(key)}`);
    assert.equal(got.body.toString(), 'second!');
    assert.equal(await gridFileCount(peer), before + 1);
  });

  it('refuses malformed keys and unknown keys with 4xx', async () => {
    const bad = await http
      .put('/v1/storage/objects')
      .query({ key: '../etc/passwd' })
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from('x'));
    assert.equal(bad.status, 400);
    const missing = await http.get('/v1/storage/objects/content').query({ key: 'nope/never.docx' });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 'STORAGE_OBJECT_NOT_FOUND');
  });

  it('refuses a declared body over 50 MB before reading it', async () => {
    const res = await http
      .post('/v1/storage/objects?fileName=big.docx')
      .set('Content-Type', 'application/octet-stream')
      .set('Content-Length', String(MAX_OBJECT_BYTES + 1))
      .send(Buffer.alloc(0))
      .ok(() => true)
      .catch((err: { response?: supertest.Response }) => err.response);
    assert.equal(res?.status, 413);
  });

  it('cuts a chunked body at the cap while streaming and keeps nothing of it', async () => {
    // The cap is a field of the running service's deps; lowering it keeps the test small, the code path is the same.
    const saved = peer.built.deps.maxBytes;
    peer.built.deps.maxBytes = 64 * 1024;
    try {
      const before = await gridFileCount(peer);
      const rows = await peer.built.deps.models.StoredObject.countDocuments({});
      const chunks = Array.from({ length: 40 }, () => randomBytes(4096));
      const res = await fetch(`${peer.url}/v1/storage/objects?fileName=big.docx`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/octet-stream' },
        body: Readable.toWeb(Readable.from(chunks)) as ReadableStream,
        duplex: 'half',
      } as RequestInit);
      assert.equal(res.status, 413);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'PAYLOAD_TOO_LARGE');
      assert.equal(await gridFileCount(peer), before);
      assert.equal(await peer.built.deps.models.StoredObject.countDocuments({}), rows);
    } finally {
      peer.built.deps.maxBytes = saved;
    }
  });

  it('presigned upload, media asset registration and content streaming, scoped by organization', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), randomBytes(2000)]);
    const ticket = await http
      .post('/v1/storage/presigned-upload')
      .set(ORG)
      .send({ fileName: 'image1.png', contentType: 'image/png' });
    assert.equal(ticket.status, 201);
    const { uploadUrl, key, method } = ticket.body.data as { uploadUrl: string; key: string; method: string };
    assert.equal(method, 'PUT');
    assert.ok(uploadUrl.startsWith(peer.url));
    const put = await fetch(uploadUrl, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, body: png });
    assert.equal(put.status, 200);
    const again = await fetch(uploadUrl, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, body: png });
    assert.equal(again.status, 404, 'a presigned URL takes one upload');

    const asset = await http.post('/v1/storage/media-assets').set(ORG).send({ key });
    assert.equal(asset.status, 201);
    assert.equal(asset.body.data.organizationId, 'org-a');
    assert.equal(asset.body.data.ownerId, 'teacher-1');
    assert.equal(asset.body.data.contentUrl, `/api/storage/media-assets/${asset.body.data.id}/content`);

    const content = await bytesOf(`${peer.url}${asset.body.data.contentUrl}`, { 'X-Organization-Id': 'org-a' });
    assert.equal(content.status, 200);
    assert.equal(content.contentType, 'image/png');
    assert.ok(Buffer.compare(content.body, png) === 0);

    const otherOrg = await http.get(asset.body.data.contentUrl).set({ 'X-Organization-Id': 'org-b' });
    assert.equal(otherOrg.status, 404);
    const stolen = await http.post('/v1/storage/media-assets').set({ 'X-Organization-Id': 'org-b' }).send({ key });
    assert.equal(stolen.status, 404, 'an object uploaded for one organization is not registered by another');
  });

  it('asks for the organization and a known key when registering', async () => {
    assert.equal((await http.post('/v1/storage/presigned-upload').send({ fileName: 'a.png' })).status, 400);
    assert.equal((await http.post('/v1/storage/media-assets').send({ key: 'uploads/x/y.png' })).status, 400);
    const unknown = await http.post('/v1/storage/media-assets').set(ORG).send({ key: 'uploads/x/y.png' });
    assert.equal(unknown.status, 404);
    assert.equal((await http.get('/api/storage/media-assets/not-a-uuid/content')).status, 400);
  });
});

async function bytesOf(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    body: Buffer.from(await res.arrayBuffer()),
  };
}
