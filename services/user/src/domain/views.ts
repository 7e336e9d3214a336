import type { MembershipRow, ProfileRow, RoleProfileRow, TeacherKycRow } from '../store/models.js';

type RoleProfileView = Record<string, unknown> & { updatedAt: string };

export interface TeacherKycView {
  status: string;
  submittedAt: string | null;
  reviewedAt: string | null;
  rejectionReason: string | null;
  documentType: string | null;
  identityNumberLast4: string | null;
}

export interface ProfileView {
  id: string;
  accountCode: string;
  email: string;
  fullName: string;
  role: string;
  status: string;
  phone: string | null;
  avatarUrl: string | null;
  defaultOrganizationId: string | null;
  createdAt: string;
  updatedAt: string;
  teacherProfile: RoleProfileView | null;
  studentProfile: RoleProfileView | null;
  parentProfile: RoleProfileView | null;
  teacherKyc: TeacherKycView | null;
  memberships: MembershipRow[];
}

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

function roleView(p: RoleProfileRow | null): RoleProfileView | null {
  return p ? { ...p, updatedAt: new Date(p.updatedAt).toISOString() } : null;
}

/** A whitelist, so a field added to the stored record never leaks by default (the hash above all). */
function kycView(k: TeacherKycRow | null): TeacherKycView | null {
  if (!k) return null;
  return {
    status: k.status,
    submittedAt: iso(k.submittedAt),
    reviewedAt: iso(k.reviewedAt),
    rejectionReason: k.rejectionReason ?? null,
    documentType: k.documentType ?? null,
    identityNumberLast4: k.identityNumberLast4 ?? null,
  };
}

export function toProfileView(row: ProfileRow): ProfileView {
  return {
    id: row._id,
    accountCode: row.accountCode,
    email: row.email,
    fullName: row.fullName,
    role: row.role,
    status: row.status,
    phone: row.phone ?? null,
    avatarUrl: row.avatarUrl ?? null,
    defaultOrganizationId: row.defaultOrganizationId ?? null,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
    teacherProfile: roleView(row.teacherProfile),
    studentProfile: roleView(row.studentProfile),
    parentProfile: roleView(row.parentProfile),
    teacherKyc: kycView(row.teacherKyc),
    memberships: (row.memberships ?? []).map((m) => ({
      organizationId: m.organizationId,
      organizationName: m.organizationName,
      role: m.role,
      status: m.status,
    })),
  };
}
