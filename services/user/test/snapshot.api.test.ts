import { expect } from 'chai';
import { snapshotBody } from '../src/schemas.js';
import { admin, owner, seed, snapshot, startUser, type TestUser } from './support.js';

describe('PUT /v1/users/:userId/profile-snapshot', () => {
  let svc: TestUser;
  before(async () => (svc = await startUser(import.meta.url)));
  after(() => svc.close());
  beforeEach(() => svc.clearCollections());

  const put = (id: string, body: object, headers: Record<string, string> = admin) =>
    svc.request.put(`/v1/users/${id}/profile-snapshot`).set(headers).send(body);
  const raw = (id: string) =>
    svc.db.conn.collection('profiles').findOne({ _id: id as never }) as Promise<Record<string, unknown> | null>;

  it('creates the profile from a snapshot and answers applied true with the view', async () => {
    const res = await put('u-1', snapshot({ email: ' An.Nguyen@THPT.edu.vn ', phone: ' 0912 345 678 ' }));
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ success: true, message: 'OK' });
    expect(res.body.data.applied).to.equal(true);
    expect(res.body.data.profile).to.include({
      id: 'u-1',
      email: 'an.nguyen@thpt.edu.vn',
      phone: '0912 345 678',
      fullName: 'Nguyễn Văn An',
      role: 'STUDENT',
      status: 'ACTIVE',
      avatarUrl: null,
      teacherProfile: null,
      studentProfile: null,
      parentProfile: null,
      teacherKyc: null,
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(res.body.data.profile.memberships).to.deep.equal([
      { organizationId: 'local', organizationName: 'Local organization', role: 'STUDENT', status: 'ACTIVE' },
    ]);
  });

  it('never stores a password hash, refresh token or any other unnamed field, even when sent', async () => {
    const secret = '$2b$12$abcdefghijklmnopqrstuuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0';
    await put(
      'u-2',
      snapshot({ passwordHash: secret, refreshToken: 'eyJ.secret.token', tokenHash: 'x', extra: { a: 1 } }),
    ).expect(200);
    const row = await raw('u-2');
    expect(row).to.not.equal(null);
    expect(JSON.stringify(row)).not.to.include(secret);
    expect(JSON.stringify(row)).not.to.include('eyJ.secret.token');
    expect(row).not.to.have.any.keys('passwordHash', 'refreshToken', 'tokenHash', 'extra');
  });

  it('drops unnamed members at every depth (memberships, teacherKyc): accepted, never stored', async () => {
    const member = { organizationId: 'o-1', organizationName: 'Trường A', role: 'TEACHER', status: 'ACTIVE' };
    const kyc = { status: 'PENDING', scanUrl: 'https://scans.example/cccd.png' };
    const res = await put(
      't-9',
      snapshot({
        role: 'TEACHER',
        memberships: [
          {
            organizationId: 'o-1',
            organizationName: 'Trường A',
            role: 'TEACHER',
            status: 'ACTIVE',
            inviteToken: 'tok-1',
          },
        ],
        teacherKyc: { status: 'PENDING', scanUrl: 'https://scans.example/cccd.png' },
      }),
    ).expect(200);
    expect(res.body.data.profile.memberships).to.deep.equal([
      { organizationId: 'o-1', organizationName: 'Trường A', role: 'TEACHER', status: 'ACTIVE' },
    ]);
    const stored = JSON.stringify(await raw('t-9'));
    expect(stored).not.to.include('inviteToken');
    expect(stored).not.to.include('tok-1');
    expect(stored).not.to.include('scanUrl');
    // The reader drops them itself (the store's strict schema is a second guard, not the first).
    const read = snapshotBody.validate(snapshot({ memberships: [{ ...member, inviteToken: 't' }], teacherKyc: kyc }));
    expect(JSON.stringify(read.value)).not.to.match(/inviteToken|scanUrl/);
  });

  it('takes the id spelled userId (as the path and identity.user-changed.v1 spell it)', async () => {
    const res = await put('u-10', snapshot({ userId: 'u-10' })).expect(200);
    expect(res.body.data.profile.id).to.equal('u-10');
    await put('u-11', snapshot({ id: 'u-11', userId: 'u-11' })).expect(200);
    expect(JSON.stringify(await raw('u-10'))).not.to.include('userId');
  });

  it('refuses a userId that disagrees with id (400 naming userId) or with the path (400 naming id)', async () => {
    const both = await put('u-12', snapshot({ id: 'u-12', userId: 'u-13' })).expect(400);
    expect(both.body.error.code).to.equal('VALIDATION_ERROR');
    expect(both.body.error.details.map((d: { path: string }) => d.path)).to.include('userId');
    const path = await put('u-12', snapshot({ userId: 'u-13' })).expect(400);
    expect(path.body.error.details.map((d: { path: string }) => d.path)).to.include('id');
    const alphabet = await put('u-12', snapshot({ userId: 'a b' })).expect(400);
    expect(alphabet.body.error.details.map((d: { path: string }) => d.path)).to.include('id');
    expect(await raw('u-12')).to.equal(null);
  });

  it('stores the teacher verification record but never returns its identity-number hash', async () => {
    const kyc = {
      status: 'APPROVED',
      identityNumberHash: 'sha256:deadbeef',
      identityNumberLast4: '6789',
      documentType: 'CCCD',
      scanUrl: 'x',
    };
    const res = await put('t-1', snapshot({ role: 'TEACHER', teacherKyc: kyc })).expect(200);
    expect(res.body.data.profile.teacherKyc).to.deep.equal({
      status: 'APPROVED',
      submittedAt: null,
      reviewedAt: null,
      rejectionReason: null,
      documentType: 'CCCD',
      identityNumberLast4: '6789',
    });
    expect((await raw('t-1'))?.teacherKycIdentityHash).to.equal('sha256:deadbeef');
    const view = await svc.request.get('/v1/users/t-1/profile').set(owner('t-1', 'TEACHER')).expect(200);
    expect(JSON.stringify(view.body)).not.to.include('deadbeef');
    expect(JSON.stringify(view.body)).not.to.include('identityNumberHash');
  });

  it('applies a newer snapshot and ignores an older or equal one (applied false, nothing changes)', async () => {
    await put('u-3', snapshot({ fullName: 'Tên Một', updatedAt: '2026-01-02T00:00:00.000Z' })).expect(200);
    const older = await put('u-3', snapshot({ fullName: 'Tên Cũ', updatedAt: '2026-01-01T00:00:00.000Z' })).expect(200);
    expect(older.body.data).to.deep.include({ applied: false });
    expect(older.body.data.profile.fullName).to.equal('Tên Một');
    const equal = await put('u-3', snapshot({ fullName: 'Tên Bằng', updatedAt: '2026-01-02T00:00:00.000Z' })).expect(
      200,
    );
    expect(equal.body.data.applied).to.equal(false);
    const newer = await put(
      'u-3',
      snapshot({ fullName: 'Tên Mới', phone: null, updatedAt: '2026-01-03T00:00:00.000Z' }),
    ).expect(200);
    expect(newer.body.data.applied).to.equal(true);
    expect(newer.body.data.profile).to.include({
      fullName: 'Tên Mới',
      phone: null,
      updatedAt: '2026-01-03T00:00:00.000Z',
    });
  });

  it('leaves one row holding the newest of 8 concurrent snapshots of a new user, whatever their order', async () => {
    const versions = Array.from({ length: 8 }, (_, i) => `2026-02-0${i + 1}T00:00:00.000Z`);
    const results = await Promise.all(
      versions.map((v, i) => put('u-race', snapshot({ email: 'race@x.vn', fullName: `Tên ${i}`, updatedAt: v }))),
    );
    expect(results.map((r) => r.status)).to.deep.equal(Array(8).fill(200));
    const row = await raw('u-race');
    expect(row?.fullName).to.equal('Tên 7');
    expect(await svc.db.conn.collection('profiles').countDocuments({})).to.equal(1);
  });

  it('refuses an e-mail or phone another profile holds with 409 EMAIL_TAKEN / PHONE_TAKEN and changes nothing', async () => {
    await seed(svc, 'a', { email: 'a@x.vn', phone: '0911111111' });
    await seed(svc, 'b', { email: 'b@x.vn' });
    const email = await put('b', snapshot({ email: 'A@x.vn', updatedAt: '2026-03-01T00:00:00.000Z' }));
    expect(email.status).to.equal(409);
    expect(email.body.error.code).to.equal('EMAIL_TAKEN');
    const phone = await put(
      'b',
      snapshot({ email: 'b@x.vn', phone: '0911111111', updatedAt: '2026-03-01T00:00:00.000Z' }),
    );
    expect(phone.body.error.code).to.equal('PHONE_TAKEN');
    const fresh = await put('c', snapshot({ email: 'a@x.vn' }));
    expect(fresh.body.error.code).to.equal('EMAIL_TAKEN');
    expect((await raw('b'))?.email).to.equal('b@x.vn');
    expect(await raw('c')).to.equal(null);
  });

  it('is ADMIN only: 401 without an actor, 403 for the owner or another role', async () => {
    expect((await put('u-4', snapshot(), {})).status).to.equal(401);
    expect((await put('u-4', snapshot(), owner('u-4'))).status).to.equal(403);
    expect((await put('u-4', snapshot(), owner('x', 'TEACHER'))).status).to.equal(403);
    expect(await raw('u-4')).to.equal(null);
  });

  it('refuses bad snapshots with 400 VALIDATION_ERROR naming the fields, and writes nothing', async () => {
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ id: 'someone-else' }, 'id'],
      [{ email: 'not-an-email' }, 'email'],
      [{ fullName: ' A ' }, 'fullName'],
      [{ role: 'ROOT' }, 'role'],
      [{ updatedAt: 'yesterday' }, 'updatedAt'],
      [{ updatedAt: undefined }, 'updatedAt'],
      [{ phone: 'call me' }, 'phone'],
      [{ avatarUrl: 'javascript:alert(1)' }, 'avatarUrl'],
      [{ memberships: [{ organizationId: 'o' }] }, 'memberships.0.organizationName'],
      [{ teacherKyc: { status: 'MAYBE' } }, 'teacherKyc.status'],
      [
        { memberships: [{ organizationId: 'o', organizationName: 'O', role: 'ROOT', status: 'A' }] },
        'memberships.0.role',
      ],
    ];
    for (const [over, path] of bad) {
      const res = await put('u-5', snapshot(over));
      expect(res.status, path).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      expect(
        res.body.error.details.map((d: { path: string }) => d.path),
        path,
      ).to.include(path);
    }
    expect((await put('bad id!', snapshot())).status).to.equal(400);
    expect(await raw('u-5')).to.equal(null);
  });
});
