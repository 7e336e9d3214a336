import { expect } from 'chai';
import { admin, owner, schoolAdmin, seed, startUser, type TestUser } from './support.js';

describe('user profile routes (GET and PATCH)', () => {
  let svc: TestUser;
  before(async () => (svc = await startUser(import.meta.url)));
  after(() => svc.close());
  beforeEach(async () => {
    await svc.clearCollections();
    await seed(svc, 'u-1', { email: 'an@x.vn', phone: '0900000001', avatarUrl: 'https://cdn.x.vn/a.png' });
  });

  const patch = (path: string, body: object, headers: Record<string, string> = owner('u-1')) =>
    svc.request.patch(`/v1/users/u-1/${path}`).set(headers).send(body);
  const view = async () => (await svc.request.get('/v1/users/u-1/profile').set(schoolAdmin).expect(200)).body.data;

  describe('GET /v1/users/:userId/profile', () => {
    it("is 404 to another organization's ADMIN and 403 to an ADMIN naming no organization (issue 33, 8)", async () => {
      const other = { ...schoolAdmin, 'X-Organization-Id': 'school-b' };
      const res = await svc.request.get('/v1/users/u-1/profile').set(other);
      expect(res.status).to.equal(404);
      expect(res.body.error.code).to.equal('USER_NOT_FOUND');
      await patch('profile', { fullName: 'Bị Đổi' }, other).expect(404);
      await patch('teacher-profile', { schoolName: 'B' }, other).expect(404);
      await svc.request.get('/v1/users/u-1/profile').set(admin).expect(403);
      expect((await view()).fullName).to.not.equal('Bị Đổi');
    });

    it('returns the view to its owner and to an admin, with the three role profiles, kyc and memberships', async () => {
      const res = await svc.request.get('/v1/users/u-1/profile').set(owner('u-1')).expect(200);
      expect(res.body).to.include({ success: true, message: 'OK' });
      expect(res.body.data).to.have.all.keys(
        'id',
        'accountCode',
        'email',
        'fullName',
        'role',
        'status',
        'phone',
        'avatarUrl',
        'defaultOrganizationId',
        'createdAt',
        'updatedAt',
        'teacherProfile',
        'studentProfile',
        'parentProfile',
        'teacherKyc',
        'memberships',
      );
      await svc.request.get('/v1/users/u-1/profile').set(schoolAdmin).expect(200);
    });

    it('answers 401 without an actor, 403 to another user, 404 USER_NOT_FOUND for an unknown user (admin)', async () => {
      expect((await svc.request.get('/v1/users/u-1/profile')).status).to.equal(401);
      const other = await svc.request.get('/v1/users/u-1/profile').set(owner('u-2', 'TEACHER'));
      expect(other.status).to.equal(403);
      expect(other.body.error.code).to.equal('FORBIDDEN');
      const missing = await svc.request.get('/v1/users/nobody/profile').set(schoolAdmin);
      expect(missing.status).to.equal(404);
      expect(missing.body.error.code).to.equal('USER_NOT_FOUND');
      expect(
        (await svc.request.get('/v1/users/u-1/profile').set({ ...owner('u-1'), 'X-User-Role': 'GOD' })).status,
      ).to.equal(400);
    });
  });

  describe('PATCH /v1/users/:userId/profile', () => {
    it('counts the 120-character fullName limit after trimming', async () => {
      const name = 'Ă'.repeat(120);
      const res = await patch('profile', { fullName: `  ${name}  ` }).expect(200);
      expect(res.body.data.fullName).to.equal(name);
      await patch('profile', { fullName: `${name}B` }).expect(400);
    });

    it('trims fullName, lowercases email, turns empty phone and avatarUrl into null', async () => {
      const res = await patch('profile', {
        fullName: '  Trần Thị Bình  ',
        email: ' Binh@X.VN ',
        phone: '',
        avatarUrl: '',
      }).expect(200);
      expect(res.body.data).to.include({ fullName: 'Trần Thị Bình', email: 'binh@x.vn', phone: null, avatarUrl: null });
      expect(await view()).to.include({ fullName: 'Trần Thị Bình', email: 'binh@x.vn', phone: null, avatarUrl: null });
    });

    it('keeps omitted optional fields and moves the version past the stored one', async () => {
      const before = await view();
      const res = await patch('profile', { fullName: 'Tên Khác' }).expect(200);
      expect(res.body.data).to.include({ email: 'an@x.vn', phone: '0900000001', avatarUrl: 'https://cdn.x.vn/a.png' });
      expect(Date.parse(res.body.data.updatedAt)).to.be.above(Date.parse(before.updatedAt));
    });

    it('lets an admin change any profile; refuses other users (403) and missing actors (401)', async () => {
      await patch('profile', { fullName: 'Bởi Quản Trị' }, schoolAdmin).expect(200);
      expect((await patch('profile', { fullName: 'Kẻ Lạ' }, owner('u-2'))).status).to.equal(403);
      expect((await patch('profile', { fullName: 'Kẻ Lạ' }, {})).status).to.equal(401);
      expect((await view()).fullName).to.equal('Bởi Quản Trị');
    });

    it('refuses every Limits violation with 400 VALIDATION_ERROR naming the field, and changes nothing', async () => {
      const bad: Array<[Record<string, unknown>, string]> = [
        [{}, 'fullName'],
        [{ fullName: '   A   ' }, 'fullName'],
        [{ fullName: 'x'.repeat(121) }, 'fullName'],
        [{ fullName: 42 }, 'fullName'],
        [{ fullName: 'Đủ Tên', email: `${'b'.repeat(60)}@${'c'.repeat(63)}.${'d'.repeat(33)}.vn` }, 'email'],
        [{ fullName: 'Đủ Tên', email: 'no-at-sign' }, 'email'],
        [{ fullName: 'Đủ Tên', email: '' }, 'email'],
        [{ fullName: 'Đủ Tên', phone: '0'.repeat(33) }, 'phone'],
        [{ fullName: 'Đủ Tên', phone: 'abc' }, 'phone'],
        [{ fullName: 'Đủ Tên', avatarUrl: 'ftp://cdn.x.vn/a.png' }, 'avatarUrl'],
        [{ fullName: 'Đủ Tên', avatarUrl: 'cdn.x.vn/a.png' }, 'avatarUrl'],
        [{ fullName: 'Đủ Tên', avatarUrl: 'https://x.vn/a b.png' }, 'avatarUrl'],
        [{ fullName: 'Đủ Tên', passwordHash: 'x' }, 'passwordHash'],
        [{ fullName: 'Đủ Tên', email: { $ne: null } }, 'email'],
      ];
      for (const [body, path] of bad) {
        const res = await patch('profile', body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
        expect(res.body.error.details.map((d: { path: string }) => d.path)).to.include(path);
      }
      expect(await view()).to.include({ fullName: 'Nguyễn Văn An', email: 'an@x.vn', phone: '0900000001' });
    });

    it('accepts the bounds: fullName of 2 and 120, email of 160, phone of 32, http avatar', async () => {
      const email = `${'b'.repeat(60)}@${'c'.repeat(63)}.${'d'.repeat(32)}.vn`;
      expect(email).to.have.length(160);
      const body = { fullName: 'Ă'.repeat(120), email, phone: `+84 ${'9'.repeat(28)}`, avatarUrl: 'http://x.vn/a' };
      await patch('profile', body).expect(200);
      await patch('profile', { fullName: 'Lý' }).expect(200);
      expect(await view()).to.include({ fullName: 'Lý', email, phone: body.phone, avatarUrl: 'http://x.vn/a' });
    });

    it('refuses an e-mail or phone another profile holds: 409 EMAIL_TAKEN / PHONE_TAKEN, nothing changes', async () => {
      await seed(svc, 'u-2', { email: 'other@x.vn', phone: '0900000002' });
      const email = await patch('profile', { fullName: 'Tên Mới', email: 'OTHER@x.vn' });
      expect(email.status).to.equal(409);
      expect(email.body.error.code).to.equal('EMAIL_TAKEN');
      const phone = await patch('profile', { fullName: 'Tên Mới', phone: ' 0900000002 ' });
      expect(phone.status).to.equal(409);
      expect(phone.body.error.code).to.equal('PHONE_TAKEN');
      expect(await view()).to.include({ fullName: 'Nguyễn Văn An', email: 'an@x.vn', phone: '0900000001' });
      // Two users without a phone never collide.
      await patch('profile', { fullName: 'Tên Mới', phone: null }).expect(200);
      await svc.request
        .patch('/v1/users/u-2/profile')
        .set(owner('u-2'))
        .send({ fullName: 'Hai', phone: '' })
        .expect(200);
    });

    it('keeps a local edit when an older snapshot arrives later; a newer one wins', async () => {
      await patch('profile', { fullName: 'Sửa Tại Chỗ' }).expect(200);
      const put = (updatedAt: string, fullName: string) =>
        svc.request.put('/v1/users/u-1/profile-snapshot').set(admin).send({
          accountCode: 'AC1',
          email: 'an@x.vn',
          fullName,
          role: 'STUDENT',
          status: 'ACTIVE',
          updatedAt,
        });
      expect((await put('2026-01-05T00:00:00.000Z', 'Tên Cũ')).body.data.applied).to.equal(false);
      expect((await view()).fullName).to.equal('Sửa Tại Chỗ');
      expect((await put('2999-01-01T00:00:00.000Z', 'Tên Mới Hơn')).body.data.applied).to.equal(true);
      expect((await view()).fullName).to.equal('Tên Mới Hơn');
    });

    it('answers 404 USER_NOT_FOUND for an unknown user (admin)', async () => {
      const res = await svc.request.patch('/v1/users/nobody/profile').set(schoolAdmin).send({ fullName: 'Không Ai' });
      expect(res.status).to.equal(404);
      expect(res.body.error.code).to.equal('USER_NOT_FOUND');
    });
  });

  describe('PATCH teacher-, student- and parent-profile', () => {
    it('creates each role profile on first use and merges later fields into it', async () => {
      const t1 = await patch('teacher-profile', {
        schoolName: ' THPT Chu Văn An ',
        subjects: [' Toán ', 'Vật lý', 'Toán'],
      }).expect(200);
      expect(t1.body.data.teacherProfile).to.include({ schoolName: 'THPT Chu Văn An' });
      expect(t1.body.data.teacherProfile.subjects).to.deep.equal(['Toán', 'Vật lý']);
      const t2 = await patch('teacher-profile', { bio: 'Giáo viên Toán' }).expect(200);
      expect(t2.body.data.teacherProfile).to.include({ schoolName: 'THPT Chu Văn An', bio: 'Giáo viên Toán' });
      const s = await patch('student-profile', {
        schoolName: 'THPT Lê Quý Đôn',
        gradeLevel: 12,
        className: '12A1',
      }).expect(200);
      expect(s.body.data.studentProfile).to.include({
        schoolName: 'THPT Lê Quý Đôn',
        gradeLevel: 12,
        className: '12A1',
      });
      const p = await patch('parent-profile', { relationToStudent: 'Mẹ' }).expect(200);
      expect(p.body.data.parentProfile).to.include({ relationToStudent: 'Mẹ' });
      const v = await view();
      expect(v.teacherProfile.subjects).to.deep.equal(['Toán', 'Vật lý']);
      expect(v.studentProfile.gradeLevel).to.equal(12);
      expect(v.parentProfile.relationToStudent).to.equal('Mẹ');
      expect(v.parentProfile.updatedAt).to.be.a('string');
    });

    it('clears a field sent empty (null) and does not move the base version', async () => {
      const before = await view();
      await patch('student-profile', { schoolName: 'Trường A', gradeLevel: 10 }).expect(200);
      const res = await patch('student-profile', { schoolName: '', gradeLevel: null }).expect(200);
      expect(res.body.data.studentProfile).to.include({ schoolName: null, gradeLevel: null });
      expect(res.body.data.updatedAt).to.equal(before.updatedAt);
    });

    it('keeps both of 10 concurrent edits of different fields (no lost update)', async () => {
      const bodies = Array.from({ length: 10 }, (_, i) =>
        i % 2 ? { bio: `bio ${i}` } : { schoolName: `Trường ${i}` },
      );
      const results = await Promise.all(bodies.map((b) => patch('teacher-profile', b)));
      expect(results.map((r) => r.status)).to.deep.equal(Array(10).fill(200));
      const t = (await view()).teacherProfile;
      expect(t.schoolName).to.match(/^Trường \d$/);
      expect(t.bio).to.match(/^bio \d$/);
    });

    it('refuses bad role-profile bodies with 400 and other users with 403', async () => {
      const bad: Array<[string, Record<string, unknown>, string]> = [
        ['teacher-profile', {}, 'body'],
        ['teacher-profile', { subjects: ['  '] }, 'subjects.0'],
        ['teacher-profile', { subjects: 'Toán' }, 'subjects'],
        ['teacher-profile', { subjects: Array(31).fill('Toán') }, 'subjects'],
        ['teacher-profile', { schoolName: 'x'.repeat(161) }, 'schoolName'],
        ['teacher-profile', { identityNumberHash: 'x' }, 'identityNumberHash'],
        ['student-profile', { gradeLevel: 13 }, 'gradeLevel'],
        ['student-profile', { gradeLevel: 10.5 }, 'gradeLevel'],
        ['parent-profile', { relationToStudent: 'x'.repeat(41) }, 'relationToStudent'],
      ];
      for (const [path, body, field] of bad) {
        const res = await patch(path, body);
        expect(res.status, `${path} ${JSON.stringify(body)}`).to.equal(400);
        expect(res.body.error.details.map((d: { path: string }) => d.path)).to.include(field);
      }
      expect((await patch('parent-profile', { relationToStudent: 'Bố' }, owner('u-2', 'PARENT'))).status).to.equal(403);
      const v = await view();
      expect([v.teacherProfile, v.studentProfile, v.parentProfile]).to.deep.equal([null, null, null]);
    });
  });
});
