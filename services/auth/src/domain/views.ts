import type { MembershipRow, UserRow } from '../store/models.js';

export interface MembershipView {
  organizationId: string;
  organizationName: string;
  role: string;
  status: string;
}

export interface UserView {
  id: string;
  accountCode: string;
  email: string;
  fullName: string;
  role: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  memberships: MembershipView[];
  defaultOrganizationId: string;
}

export interface SessionView {
  user: UserView;
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
}

/** The contract's User: public fields only, never the password hash. */
export function toUserView(user: UserRow, memberships: MembershipRow[]): UserView {
  return {
    id: user._id,
    accountCode: user.accountCode,
    email: user.email,
    fullName: user.fullName,
    role: user.role,
    status: user.status,
    createdAt: new Date(user.createdAt).toISOString(),
    updatedAt: new Date(user.updatedAt).toISOString(),
    memberships: memberships.map((m) => ({
      organizationId: m.organizationId,
      organizationName: m.organizationName,
      role: m.role,
      status: m.status,
    })),
    defaultOrganizationId: user.defaultOrganizationId,
  };
}
