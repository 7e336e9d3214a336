import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import bcrypt from 'bcrypt';
import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { bcryptCost } from '../src/domain/passwords.js';
import { FULL_NAME_PATTERN, grantBody, loginBody, registerBody } from '../src/schemas.js';
import { newUser, startAuth, type TestAuth } from './support.js';

describe('POST /v1/auth/register', () => {
  let t: TestAuth;
  before(async () => (t = await startAuth(import.meta.url)));
  after(() => t.close());
  beforeEach(() => t.clear());

  const register = (body: object) => request(t.app).post('/v1/auth/register').send(body);

  it('returns 201 with the session envelope: user, accessToken, refreshToken, Bearer, expiresIn', async () => {
    const res = await register(newUser({ email: 'an.nguyen@thpt.edu.vn' }));
    expect(res.status).to.equal(201);
    expect(res.body).to.include({ success: true, message: 'OK' });
    const { data } = res.body;
    expect(data).to.include({ tokenType: 'Bearer', expiresIn: 900 });
    expect(data.user).to.include({
      email: 'an.nguyen@thpt.edu.vn',
      fullName: 'Nguyễn Văn An',
      role: 'STUDENT',
      status: 'ACTIVE',
    });
    expect(data.user.defaultOrganizationId).to.match(/^org_[0-9a-f]{32}$/);
    expect(data.user.accountCode).to.match(/^AC[0-9A-HJKMNP-TV-Z]{10}$/);
    expect(data.user).to.have.keys([
      'id',
      'accountCode',
      'email',
      'fullName',
      'role',
      'status',
      'createdAt',
      'updatedAt',
      'memberships',
      'defaultOrganizationId',
    ]);
    const claims = jwt.verify(data.accessToken, t.config.AUTH_JWT_SECRET) as Record<string, unknown>;
    expect(claims).to.include({
      sub: data.user.id,
      type: 'access',
      role: 'STUDENT',
      accountCode: data.user.accountCode,
      fullName: 'Nguyễn Văn An',
      email: 'an.nguyen@thpt.edu.vn',
      defaultOrganizationId: data.user.defaultOrganizationId,
    });
    expect(claims.memberships).to.deep.equal([{ organizationId: data.user.defaultOrganizationId, role: 'STUDENT' }]);
    const family = await t.deps.models.TokenFamily.findOne({ userId: data.user.id }).lean();
    expect(claims.sid).to.equal(family?._id);
    expect(jwt.verify(data.refreshToken, t.config.AUTH_JWT_SECRET)).to.include({ sub: data.user.id, type: 'refresh' });
  });

  it('stores the password only as a bcrypt hash of the configured cost', async () => {
    const body = newUser();
    await register(body).expect(201);
    const row = await t.deps.models.User.findOne({ email: body.email }).lean();
    expect(row?.passwordHash).to.match(/^\$2b\$/);
    expect(bcryptCost(row!.passwordHash)).to.equal(4);
    expect(await bcrypt.compare(String(body.password), row!.passwordHash)).to.equal(true);
    expect(JSON.stringify(row)).to.not.include(String(body.password));
  });

  it('creates an organization of its own as the default membership, a new one for every registration', async () => {
    const res = await register(newUser({ role: 'TEACHER' })).expect(201);
    const { user } = res.body.data;
    expect(user.memberships).to.deep.equal([
      {
        organizationId: user.defaultOrganizationId,
        organizationName: "Nguyễn Văn An's workspace",
        role: 'TEACHER',
        status: 'ACTIVE',
      },
    ]);
    expect(await t.deps.models.Membership.countDocuments({ userId: user.id })).to.equal(1);
    const other = (await register(newUser({ role: 'TEACHER' })).expect(201)).body.data.user;
    expect(other.defaultOrganizationId).to.not.equal(user.defaultOrganizationId);
  });

  it('stores the refresh token as bcrypt(SHA-256(token)), never the raw token', async () => {
    const res = await register(newUser()).expect(201);
    const token: string = res.body.data.refreshToken;
    const { jti } = jwt.decode(token) as { jti: string };
    const row = await t.deps.models.RefreshToken.findOne({ jti }).lean();
    expect(row?.revokedAt).to.equal(null);
    expect(row?.tokenHash).to.not.include(token);
    const digest = createHash('sha256').update(token).digest('hex');
    expect(await bcrypt.compare(digest, row!.tokenHash)).to.equal(true);
  });

  it('trims and lowercases the email', async () => {
    const res = await register(newUser({ email: '  Co.Giao@THPT.edu.VN ' })).expect(201);
    expect(res.body.data.user.email).to.equal('co.giao@thpt.edu.vn');
  });

  it('returns 409 EMAIL_TAKEN for an email already registered in any case, and writes nothing', async () => {
    await register(newUser({ email: 'dup@thpt.edu.vn' })).expect(201);
    const res = await register(newUser({ email: 'DUP@thpt.edu.vn' }));
    expect(res.status).to.equal(409);
    expect(res.body).to.deep.include({ success: false, error: { code: 'EMAIL_TAKEN' } });
    expect(await t.deps.models.User.countDocuments()).to.equal(1);
    expect(await t.deps.models.Membership.countDocuments()).to.equal(1);
    expect(await t.deps.models.RefreshToken.countDocuments()).to.equal(1);
  });

  it('returns 409 PHONE_TAKEN for a non-empty phone in use; empty phones never collide', async () => {
    await register(newUser({ phone: '0912 345 678' })).expect(201);
    const res = await register(newUser({ phone: '0912 345 678' }));
    expect(res.status).to.equal(409);
    expect(res.body.error.code).to.equal('PHONE_TAKEN');
    await register(newUser({ phone: '' })).expect(201);
    await register(newUser({ phone: '' })).expect(201);
    await register(newUser()).expect(201);
    expect(await t.deps.models.User.countDocuments()).to.equal(4);
    expect(await t.deps.models.Membership.countDocuments()).to.equal(4);
  });

  it('takes a password past 72 UTF-8 bytes, and only the whole of it logs in', async () => {
    const body = newUser({ password: 'ậ'.repeat(30) }) as { email: string; password: string };
    await register(body).expect(201);
    const login = (password: string) => request(t.app).post('/v1/auth/login').send({ email: body.email, password });
    await login('ậ'.repeat(30)).expect(200);
    await login('ậ'.repeat(24)).expect(401);
    await login('ậ'.repeat(29) + 'a').expect(401);
  });

  it('counts password length in characters, as the document does: 8 emoji are 8, 257 are too many', async () => {
    await register(newUser({ password: '😀'.repeat(8) })).expect(201);
    const short = await register(newUser({ password: '😀'.repeat(7) }));
    expect(short.status).to.equal(400);
    const long = await register(newUser({ password: '😀'.repeat(257) }));
    expect(long.body.error.details).to.deep.equal([
      { path: 'password', message: 'password length must be less than or equal to 256 characters long' },
    ]);
  });

  it('refuses self-registration as ADMIN', async () => {
    const res = await register(newUser({ role: 'ADMIN' }));
    expect(res.status).to.equal(400);
    expect(res.body.error.details[0].path).to.equal('role');
    expect(await t.deps.models.User.countDocuments()).to.equal(0);
  });

  it('names every invalid field at once', async () => {
    const res = await register({ email: 'not-an-email', password: 'short', fullName: 'A', phone: 'call me' });
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('VALIDATION_ERROR');
    const paths = (res.body.error.details as Array<{ path: string }>).map((d) => d.path).sort();
    expect(paths).to.deep.equal(['email', 'fullName', 'password', 'phone']);
  });

  it('ignores X-Forwarded-For without TRUST_PROXY: a client cannot name itself a new address per try', async () => {
    const max = t.config.AUTH_REGISTER_MAX_PER_ADDRESS;
    for (let i = 0; i < max; i += 1) {
      await request(t.app)
        .post('/v1/auth/register')
        .set('X-Forwarded-For', `198.51.100.${i}`)
        .send(newUser())
        .expect(201);
    }
    const res = await request(t.app).post('/v1/auth/register').set('X-Forwarded-For', '203.0.113.1').send(newUser());
    expect(res.status).to.equal(429);
  });

  it('counts the 120-character fullName limit after trimming: 120 characters in spaces register, 121 do not', async () => {
    const name = 'Ă'.repeat(120);
    const res = await register(newUser({ fullName: `   ${name}\t ` }));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.data.user.fullName).to.equal(name);
    const over = await register(newUser({ fullName: `${name}B` }));
    expect([over.status, over.body.error.details[0].path]).to.deep.equal([400, 'fullName']);
  });

  it('refuses unknown fields instead of silently dropping them', async () => {
    const res = await register(newUser({ isAdmin: true }));
    expect(res.status).to.equal(400);
    expect(res.body.error.details).to.deep.equal([{ path: 'isAdmin', message: 'isAdmin is not allowed' }]);
  });
});

describe('register body: the document states exactly what the validation does', () => {
  const doc = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')) as {
    components: { schemas: { RegisterRequest: { properties: Record<string, { pattern?: string }> } } };
  };
  const props = doc.components.schemas.RegisterRequest.properties;
  const valid = (over: object) => registerBody.validate({ ...newUser(), ...over }).error === undefined;

  it('fullName: the same pattern; what it refuses is what trims to fewer than 2 or more than 120 characters', () => {
    expect(props.fullName?.pattern).to.equal(FULL_NAME_PATTERN);
    const pattern = new RegExp(FULL_NAME_PATTERN, 'u');
    const long = 'Ă'.repeat(120);
    const names = [
      'An',
      '  An  ',
      'a ',
      '\ufeffa',
      '\u3000b\u00a0',
      'Nguyễn Văn An',
      'x\ty',
      long,
      ` ${long} `,
      `${long}b`,
    ];
    for (const name of names) {
      expect(valid({ fullName: name }), JSON.stringify(name)).to.equal(pattern.test(name));
    }
  });

  it('phone: the same pattern, spaces around allowed and removed, empty is no phone', () => {
    const pattern = new RegExp(props.phone!.pattern!, 'u');
    for (const p of ['+84 90 123 4567', ' 0901234567 ', '+59 ', '(028) 3822', '090-', '\t0901', '   ', '']) {
      expect(valid({ phone: p }), JSON.stringify(p)).to.equal(pattern.test(p));
    }
    expect(registerBody.validate({ ...newUser(), phone: ' 0901 234 567 ' }).value.phone).to.equal('0901 234 567');
    expect(registerBody.validate({ ...newUser(), phone: '   ' }).value.phone).to.equal(null);
  });
});

describe('login and grant bodies: the document states what the validation does', () => {
  type Props = Record<string, { pattern?: string }>;
  const doc = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')) as {
    components: { schemas: { LoginRequest: { properties: Props }; GrantRequest: { properties: Props } } };
  };

  /** Each value is valid for the schema exactly when the document's pattern matches it. */
  function expectAgreement(props: Props, name: string, values: string[], valid: (v: string) => boolean) {
    const pattern = new RegExp(props[name]?.pattern ?? '', 'u');
    for (const v of values) expect(valid(v), JSON.stringify(v)).to.equal(pattern.test(v));
  }

  it('login email: at most 320 characters (code points) once trimmed, empty allowed', () => {
    const long = 'a'.repeat(320);
    const emails = [
      '',
      '   ',
      'A@B.C',
      long,
      ` ${long}\t`,
      `${long}b`,
      '\u{1F600}'.repeat(320),
      '\u{1F600}'.repeat(321),
    ];
    expectAgreement(
      doc.components.schemas.LoginRequest.properties,
      'email',
      emails,
      (email) => loginBody.validate({ email, password: 'x' }).error === undefined,
    );
    expect(loginBody.validate({ email: '  A@B.C ', password: 'x' }).value.email).to.equal('a@b.c');
  });

  it('organizationName: 1 to 160 characters (code points) once trimmed; only whitespace is refused', () => {
    const long = 'Ă'.repeat(160);
    const names = ['O', ' ', '\u3000', ` ${long} `, `${long}b`, '\u{1F3EB}'.repeat(160), '\u{1F3EB}'.repeat(161)];
    expectAgreement(
      doc.components.schemas.GrantRequest.properties,
      'organizationName',
      names,
      (organizationName) => grantBody.validate({ role: 'TEACHER', organizationName }).error === undefined,
    );
    expect(grantBody.validate({ role: 'TEACHER', organizationName: ' THPT B ' }).value.organizationName).to.equal(
      'THPT B',
    );
  });
});
