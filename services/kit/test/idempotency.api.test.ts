import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Router } from 'express';
import request from 'supertest';
import { AppError, createLogger, createMetricsRegistry, readActor } from '../src/core/index.js';
import { connectMongo, syncIndexes, type MongoHandle } from '../src/data/index.js';
import { createApp, idempotencyKey, idempotencyRecordModel, ok } from '../src/http/index.js';
import { LogCapture } from './support/log-capture.js';
import { testDbName, testMongoUri } from './support/servers.js';

const TTL_MS = 15 * 60 * 1000;

async function until(what: string, cond: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}

describe('kit idempotencyKey() (real MongoDB)', () => {
  let db: MongoHandle;
  let server: http.Server;
  const clock = { now: Date.now() };
  const state = { executions: 0, failNext: false, hold: undefined as undefined | Promise<void> };

  before(async () => {
    db = await connectMongo({
      uri: testMongoUri(),
      dbName: testDbName('kit', 'idempotency'),
      logger: createLogger({ name: 'kit', destination: new LogCapture() }),
    });
    const guard = idempotencyKey({
      conn: db.conn,
      scope: (req) => `import:${readActor(req).userId ?? 'anonymous'}`,
      ttlMs: TTL_MS,
      now: () => clock.now,
    });
    const routes = Router();
    const handler = async (req: { body?: { invalid?: boolean } }, res: Parameters<typeof ok>[0]) => {
      state.executions++;
      if (state.hold) await state.hold;
      if (req.body?.invalid) throw new AppError('VALIDATION_ERROR', 'invalid');
      if (state.failNext) {
        state.failNext = false;
        throw new Error('transient failure');
      }
      ok(res, { job: state.executions }, 'OK', 201);
    };
    routes.post('/v1/jobs', guard, handler);
    routes.post(
      '/v1/strict',
      idempotencyKey({ conn: db.conn, scope: () => 'strict', ttlMs: TTL_MS, required: true, maxKeyLength: 8 }),
      handler,
    );
    routes.post('/v1/rejects', guard, () => {
      state.executions++;
      throw new AppError('IMPORT_JOB_ACTIVE', 'Job is active');
    });
    await syncIndexes(db.conn);
    const app = createApp({
      name: 'kit-idem-test',
      version: '0.0.0',
      routes,
      checks: {},
      logger: createLogger({ name: 'kit-idem-test', destination: new LogCapture() }),
      metrics: createMetricsRegistry(),
      openapi: {},
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    expect((server.address() as AddressInfo).port).to.be.above(0);
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await db.conn.dropDatabase();
    await db.conn.close();
  });
  beforeEach(async () => {
    await idempotencyRecordModel(db.conn).deleteMany({});
    Object.assign(state, { executions: 0, failNext: false, hold: undefined });
    clock.now = Date.now();
  });

  const post = (key: string | undefined, body: object, user = 'u1', path = '/v1/jobs') => {
    const req = request(server).post(path).set('X-User-Id', user).send(body);
    return key === undefined ? req : req.set('Idempotency-Key', key);
  };

  it('has a unique index on (scope, key)', async () => {
    const indexes = await idempotencyRecordModel(db.conn).collection.indexes();
    const unique = indexes.find((i) => JSON.stringify(i.key) === JSON.stringify({ scope: 1, key: 1 }));
    expect(unique?.unique).to.equal(true);
  });

  it('the same key and payload replays the stored response, marked, without running again', async () => {
    const first = await post('k-1', { title: 'Đề 1', tags: ['a'] });
    expect([first.status, first.body.data]).to.deep.equal([201, { job: 1 }]);
    expect(first.headers['idempotent-replayed']).to.equal(undefined);
    // Same payload, keys in another order: the same canonical request.
    const again = await post('k-1', { tags: ['a'], title: 'Đề 1' });
    expect([again.status, again.body]).to.deep.equal([201, first.body]);
    expect(again.headers['idempotent-replayed']).to.equal('true');
    expect(state.executions).to.equal(1);
  });

  it('the same key with another payload is 409 IDEMPOTENCY_KEY_REUSED', async () => {
    await post('k-2', { title: 'A' });
    const res = await post('k-2', { title: 'B' });
    expect([res.status, res.body.error.code]).to.deep.equal([409, 'IDEMPOTENCY_KEY_REUSED']);
    expect(state.executions).to.equal(1);
  });

  it('keys are scoped: another actor with the same key runs its own request', async () => {
    await post('k-3', { title: 'A' }, 'u1');
    const other = await post('k-3', { title: 'A' }, 'u2');
    expect([other.status, other.body.data]).to.deep.equal([201, { job: 2 }]);
  });

  it('keys are trimmed and cut at 120 characters', async () => {
    await post('  k-4  ', { title: 'A' });
    expect((await post('k-4', { title: 'A' })).headers['idempotent-replayed']).to.equal('true');
    const long = 'L'.repeat(120);
    await post(`${long}-first`, { title: 'A' });
    const cut = await post(`${long}-second`, { title: 'A' });
    expect(cut.headers['idempotent-replayed']).to.equal('true');
    expect(state.executions).to.equal(2);
    const stored = await idempotencyRecordModel(db.conn).findOne({ key: long }).lean();
    expect(stored?.key).to.equal(long);
  });

  it('the cap is configurable, and a required key is a 400 when absent or blank', async () => {
    await post('12345678-a', { n: 1 }, 'u1', '/v1/strict');
    const same = await post('12345678-b', { n: 1 }, 'u1', '/v1/strict');
    expect(same.headers['idempotent-replayed']).to.equal('true');
    for (const key of [undefined, '   ']) {
      const res = await post(key, { n: 1 }, 'u1', '/v1/strict');
      expect([res.status, res.body.message]).to.deep.equal([400, 'Idempotency-Key header is required']);
    }
  });

  it('without a key the route runs every time', async () => {
    await post(undefined, { title: 'A' });
    await post(undefined, { title: 'A' });
    expect(state.executions).to.equal(2);
  });

  it('a 5xx answer is not stored: the retry runs again and its success is then replayed', async () => {
    state.failNext = true;
    expect((await post('k-5', { title: 'A' })).status).to.equal(500);
    const retry = await post('k-5', { title: 'A' });
    expect([retry.status, retry.body.data]).to.deep.equal([201, { job: 2 }]);
    expect((await post('k-5', { title: 'A' })).headers['idempotent-replayed']).to.equal('true');
    expect(state.executions).to.equal(2);
  });

  it('a 400 refusal releases the key: the corrected retry with the same key runs', async () => {
    expect((await post('k-11', { invalid: true })).status).to.equal(400);
    const fixed = await post('k-11', { title: 'A' });
    expect([fixed.status, fixed.body.data]).to.deep.equal([201, { job: 2 }]);
  });

  it('a 4xx outcome such as 409 is stored and replayed like any other', async () => {
    const first = await post('k-6', {}, 'u1', '/v1/rejects');
    expect(first.status).to.equal(409);
    const again = await post('k-6', {}, 'u1', '/v1/rejects');
    expect([again.status, again.body.error.code, again.headers['idempotent-replayed']]).to.deep.equal([
      409,
      'IMPORT_JOB_ACTIVE',
      'true',
    ]);
    expect(state.executions).to.equal(1);
  });

  it('concurrent first requests: one runs, the others get 409 in progress, then the result replays', async () => {
    const g = gate();
    state.hold = g.opened;
    const results: request.Response[] = [];
    const all = Array.from({ length: 8 }, () => post('k-7', { title: 'A' }).then((r) => results.push(r)));
    await until('seven answers while the first still runs', () => results.length === 7);
    expect(state.executions).to.equal(1);
    for (const r of results) {
      expect([r.status, r.body.error.code, r.headers['retry-after']]).to.deep.equal([
        409,
        'IDEMPOTENCY_REQUEST_IN_PROGRESS',
        '1',
      ]);
    }
    g.open();
    await Promise.all(all);
    expect(results[7]!.status).to.equal(201);
    const replay = await post('k-7', { title: 'A' });
    expect([replay.status, replay.headers['idempotent-replayed']]).to.deep.equal([201, 'true']);
    expect(state.executions).to.equal(1);
  });

  it('another payload while the first still runs is still 409 KEY_REUSED', async () => {
    const g = gate();
    state.hold = g.opened;
    const first = post('k-8', { title: 'A' }).then((r) => r);
    await until('the first request runs', () => state.executions === 1);
    const other = await post('k-8', { title: 'B' });
    expect(other.body.error.code).to.equal('IDEMPOTENCY_KEY_REUSED');
    g.open();
    expect((await first).status).to.equal(201);
  });

  it('an expired record counts as absent even where the server ignores TTL indexes', async () => {
    await post('k-9', { title: 'A' });
    clock.now += TTL_MS + 1;
    const later = await post('k-9', { title: 'B' });
    expect([later.status, later.body.data, later.headers['idempotent-replayed']]).to.deep.equal([
      201,
      { job: 2 },
      undefined,
    ]);
    expect((await post('k-9', { title: 'B' })).headers['idempotent-replayed']).to.equal('true');
  });

  it('a key held by a request that died (lock run out) can be claimed again', async () => {
    const now = clock.now;
    await idempotencyRecordModel(db.conn).create({
      scope: 'import:u1',
      key: 'k-10',
      fingerprint: 'whatever',
      state: 'pending',
      createdAt: new Date(now - 120_000),
      expiresAt: new Date(now + TTL_MS),
      lockedUntil: new Date(now - 60_000),
    });
    const res = await post('k-10', { title: 'A' });
    expect([res.status, res.body.data]).to.deep.equal([201, { job: 1 }]);
  });
});
