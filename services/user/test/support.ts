import { startTestService, type TestService } from '../../kit/test/support/harness.js';
import type { UserConfig } from '../src/config.js';
import { userService, type BuiltUser } from '../src/service.js';

export type TestUser = TestService<UserConfig, BuiltUser>;

export const startUser = (file: string, env: Record<string, string> = {}): Promise<TestUser> =>
  startTestService(userService, { file, env });

/** The platform's ADMIN (no organization): a backfill writing snapshots. */
export const admin = { 'X-User-Id': 'admin-1', 'X-User-Role': 'ADMIN' };
/** The ADMIN of the organization the seeded profiles are members of ('local'). */
export const schoolAdmin = { 'X-User-Id': 'admin-2', 'X-User-Role': 'ADMIN', 'X-Organization-Id': 'local' };
export const owner = (id: string, role = 'STUDENT') => ({ 'X-User-Id': id, 'X-User-Role': role });

let counter = 0;

/** A valid snapshot as auth states a user; override any field. */
export function snapshot(over: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  return {
    accountCode: `AC${String(counter).padStart(10, '0')}`,
    email: `hoc.sinh${counter}.${process.pid}@thpt-example.edu.vn`,
    fullName: 'Nguyễn Văn An',
    role: 'STUDENT',
    status: 'ACTIVE',
    defaultOrganizationId: 'local',
    memberships: [
      { organizationId: 'local', organizationName: 'Local organization', role: 'STUDENT', status: 'ACTIVE' },
    ],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

/** Puts a snapshot as an admin backfill would; returns the stored profile view. */
export async function seed(svc: TestUser, userId: string, over: Record<string, unknown> = {}) {
  const res = await svc.request.put(`/v1/users/${userId}/profile-snapshot`).set(admin).send(snapshot(over));
  if (res.status !== 200) throw new Error(`seed failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.profile as Record<string, unknown>;
}
