import { Schema, type Connection, type Model } from 'mongoose';
import { outboxOwnerPlugin } from '../../../kit/src/data/index.js';

export interface UserRow {
  _id: string;
  accountCode: string;
  email: string;
  phone?: string;
  fullName: string;
  role: string;
  status: string;
  passwordHash: string;
  defaultOrganizationId: string;
  legacyId?: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface MembershipRow {
  _id: string;
  userId: string;
  organizationId: string;
  organizationName: string;
  role: string;
  status: string;
  createdAt: Date;
}

export interface RefreshTokenRow {
  _id: string;
  jti: string;
  userId: string;
  familyId: string;
  tokenHash: string;
  expiresAt: Date;
  revokedAt: Date | null;
  revokedReason: string | null;
  replacedBy: string | null;
  createdAt: Date;
}

/** One login session: the chain of refresh tokens rotated from one login or registration. */
export interface TokenFamilyRow {
  _id: string;
  userId: string;
  revokedAt: Date | null;
  revokedReason: string | null;
  createdAt: Date;
}

/** Failures (or attempts) counted under one throttle key; see domain/throttle.ts. */
export interface ThrottleDocRow {
  _id: string;
  count: number;
  lastAt: Date;
  expiresAt: Date;
}

// String ids (UUIDs) keep ids opaque to clients and let us name a row before inserting it.
const userSchema = new Schema<UserRow>(
  {
    _id: { type: String, required: true },
    accountCode: { type: String, required: true, unique: true },
    email: { type: String, required: true, unique: true },
    // Sparse: users without a phone have no field at all, so they never collide on it.
    phone: { type: String, unique: true, sparse: true },
    fullName: { type: String, required: true },
    role: { type: String, required: true },
    status: { type: String, required: true },
    passwordHash: { type: String, required: true },
    defaultOrganizationId: { type: String, required: true },
    legacyId: { type: String, unique: true, sparse: true },
  },
  { collection: 'users', timestamps: true, versionKey: false },
);
// The user document carries its identity.user-changed.v1 stamp: the change and its event are one write.
userSchema.plugin(outboxOwnerPlugin);

const membershipSchema = new Schema<MembershipRow>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    organizationId: { type: String, required: true },
    organizationName: { type: String, required: true },
    role: { type: String, required: true },
    status: { type: String, required: true },
  },
  { collection: 'memberships', timestamps: { createdAt: true, updatedAt: false }, versionKey: false },
);
membershipSchema.index({ userId: 1, organizationId: 1 }, { unique: true });

const refreshTokenSchema = new Schema<RefreshTokenRow>(
  {
    _id: { type: String, required: true },
    jti: { type: String, required: true, unique: true },
    userId: { type: String, required: true, index: true },
    familyId: { type: String, required: true, index: true },
    tokenHash: { type: String, required: true },
    expiresAt: { type: Date, required: true },
    revokedAt: { type: Date, default: null },
    revokedReason: { type: String, default: null },
    replacedBy: { type: String, default: null },
  },
  { collection: 'refresh_tokens', timestamps: { createdAt: true, updatedAt: false }, versionKey: false },
);
// Expired rows are useless; a week of grace keeps them for replay forensics.
refreshTokenSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 7 * 24 * 3600 });

const tokenFamilySchema = new Schema<TokenFamilyRow>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true, index: true },
    revokedAt: { type: Date, default: null },
    revokedReason: { type: String, default: null },
  },
  { collection: 'token_families', timestamps: { createdAt: true, updatedAt: false }, versionKey: false },
);
// The revocation feed: families revoked in a time range, in order (live ones hold null and sort first).
tokenFamilySchema.index({ revokedAt: 1, _id: 1 });

const throttleSchema = new Schema<ThrottleDocRow>(
  {
    _id: { type: String, required: true },
    count: { type: Number, required: true },
    lastAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
  },
  { collection: 'throttles', versionKey: false },
);
// Reads treat an expired row as absent; the TTL monitor only tidies up.
throttleSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

export interface AuthModels {
  User: Model<UserRow>;
  Membership: Model<MembershipRow>;
  RefreshToken: Model<RefreshTokenRow>;
  TokenFamily: Model<TokenFamilyRow>;
  Throttle: Model<ThrottleDocRow>;
}

export function authModels(conn: Connection): AuthModels {
  return {
    User: conn.model<UserRow>('User', userSchema),
    Membership: conn.model<MembershipRow>('Membership', membershipSchema),
    RefreshToken: conn.model<RefreshTokenRow>('RefreshToken', refreshTokenSchema),
    TokenFamily: conn.model<TokenFamilyRow>('TokenFamily', tokenFamilySchema),
    Throttle: conn.model<ThrottleDocRow>('Throttle', throttleSchema),
  };
}
