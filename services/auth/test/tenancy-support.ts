import jwt from 'jsonwebtoken';
import request from 'supertest';
import { newUser, type TestAuth } from './support.js';

export interface Registered {
  id: string;
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
  defaultOrganizationId: string;
}

export async function registerUser(t: TestAuth, over: Record<string, unknown> = {}): Promise<Registered> {
  const body = newUser(over) as { email: string; password: string };
  const res = await request(t.app).post('/v1/auth/register').send(body).expect(201);
  const { user, accessToken, refreshToken } = res.body.data;
  return { id: user.id, email: body.email, password: body.password, accessToken, refreshToken, ...user };
}

/** What an operator does once per school (or for the platform): a membership row written directly. */
export async function seedMembership(t: TestAuth, userId: string, organizationId: string, role: string) {
  await t.deps.models.Membership.create({
    _id: `seed-${userId}-${organizationId}`,
    userId,
    organizationId,
    organizationName: `Org ${organizationId}`,
    role,
    status: 'ACTIVE',
  });
}

/** The actor headers the gateway sets for a user acting in an organization with a role. */
export function actor(userId: string, organizationId: string, role: string): Record<string, string> {
  return { 'X-User-Id': userId, 'X-User-Role': role, 'X-Organization-Id': organizationId };
}

export function claimsOf(token: string): Record<string, unknown> & { memberships: unknown[]; sid: string } {
  return jwt.decode(token) as Record<string, unknown> & { memberships: unknown[]; sid: string };
}
