import { Schema, type Connection, type Model } from 'mongoose';

export interface MembershipRow {
  organizationId: string;
  organizationName: string;
  role: string;
  status: string;
}

/** A role profile as stored: its own fields plus when it last changed. */
export type RoleProfileRow = Record<string, unknown> & { updatedAt: Date };

/** The redacted-on-read teacher verification record (the identity-number hash lives apart). */
export interface TeacherKycRow {
  status: string;
  submittedAt: Date | null;
  reviewedAt: Date | null;
  rejectionReason: string | null;
  documentType: string | null;
  identityNumberLast4: string | null;
}

export interface ProfileRow {
  /** The user id (auth's id). */
  _id: string;
  accountCode: string;
  email: string;
  /** Absent, never null, when the user has none: the sparse unique index then ignores the row. */
  phone?: string;
  fullName: string;
  avatarUrl: string | null;
  role: string;
  status: string;
  defaultOrganizationId: string | null;
  memberships: MembershipRow[];
  teacherProfile: RoleProfileRow | null;
  studentProfile: RoleProfileRow | null;
  parentProfile: RoleProfileRow | null;
  teacherKyc: TeacherKycRow | null;
  /** Stored for a later review flow; `select: false`, so no read returns it by accident. */
  teacherKycIdentityHash?: string | null;
  createdAt: Date;
  /** The base record's version: the snapshot's user.updatedAt, or the time of a local PATCH. */
  updatedAt: Date;
  /** Bumped by every write: the compare-and-set token of read-modify-write edits. */
  rev: number;
}

const membershipSchema = new Schema<MembershipRow>(
  {
    organizationId: { type: String, required: true },
    organizationName: { type: String, required: true },
    role: { type: String, required: true },
    status: { type: String, required: true },
  },
  { _id: false },
);

const profileSchema = new Schema<ProfileRow>(
  {
    _id: { type: String, required: true },
    accountCode: { type: String, required: true },
    email: { type: String, required: true, unique: true },
    phone: { type: String, unique: true, sparse: true },
    fullName: { type: String, required: true },
    avatarUrl: { type: String, default: null },
    role: { type: String, required: true },
    status: { type: String, required: true },
    defaultOrganizationId: { type: String, default: null },
    memberships: { type: [membershipSchema], default: [] },
    teacherProfile: { type: Schema.Types.Mixed, default: null },
    studentProfile: { type: Schema.Types.Mixed, default: null },
    parentProfile: { type: Schema.Types.Mixed, default: null },
    teacherKyc: { type: Schema.Types.Mixed, default: null },
    teacherKycIdentityHash: { type: String, default: null, select: false },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    rev: { type: Number, required: true, default: 0 },
  },
  // No mongoose timestamps: updatedAt is the snapshot version and is set on purpose, never by save.
  { collection: 'profiles', versionKey: false, minimize: false },
);

/** Parent-to-student links: the contract keeps the store and gives it no API (nothing writes it yet). */
export interface ParentLinkRow {
  _id: string;
  parentId: string;
  studentId: string;
  createdAt: Date;
}

const parentLinkSchema = new Schema<ParentLinkRow>(
  {
    _id: { type: String, required: true },
    parentId: { type: String, required: true },
    studentId: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: 'parent_links', versionKey: false },
);
parentLinkSchema.index({ parentId: 1, studentId: 1 }, { unique: true });

export function parentLinkModel(conn: Connection): Model<ParentLinkRow> {
  return conn.model<ParentLinkRow>('ParentLink', parentLinkSchema);
}

export interface UserModels {
  Profile: Model<ProfileRow>;
  ParentLink: Model<ParentLinkRow>;
}

export function userModels(conn: Connection): UserModels {
  return { Profile: conn.model<ProfileRow>('Profile', profileSchema), ParentLink: parentLinkModel(conn) };
}
