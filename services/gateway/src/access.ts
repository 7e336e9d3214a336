// Who is calling (pure given its inputs): the verified token, checked against the revocation set,
// the client key the limits count by, and a table's guard with the role in the resolved organization.
import type { IncomingMessage } from 'node:http';
import { AppError, accessTokenOf } from '../../kit/src/core/index.js';
import { clientAddress } from './envelope.js';
import type { Actor } from './headers.js';
import { resolveOrganization, type TokenVerifier, type Verified } from './identity.js';
import type { RevocationSet } from './revocation.js';
import type { Guard } from './tables.js';

const BEARER_CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="edu-platform"' };
const INVALID_CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="edu-platform", error="invalid_token"' };

const REFUSALS: Record<string, string> = {
  expired: 'Access token expired',
  revoked: 'Access token revoked',
};

/**
 * The request's token, verified (the cache may answer) and then checked against the revoked
 * sessions on every request, so a token the cache accepted before its logout is refused after it.
 */
export function tokenOf(
  req: IncomingMessage,
  check: { verify: TokenVerifier; revocations?: RevocationSet },
  nowMs: number,
): Verified | undefined {
  const token = accessTokenOf(req.headers);
  if (token === undefined) return undefined;
  const verified = check.verify(token, Math.floor(nowMs / 1000));
  if (verified.ok && check.revocations?.isRevoked(verified.caller, nowMs)) return { ok: false, reason: 'revoked' };
  return verified;
}

/** A valid token's user is the client; otherwise the client's address (so one NAT'd school with tokens is many clients). */
export function clientKey(req: IncomingMessage, verified: Verified | undefined, trustProxy: number): string {
  return verified?.ok ? `u:${verified.caller.userId}` : `a:${clientAddress(req, trustProxy) ?? '?'}`;
}

function assertAuthenticated(verified: Verified | undefined): Verified & { ok: true } {
  if (!verified) throw new AppError('UNAUTHENTICATED', 'An access token is required', { headers: BEARER_CHALLENGE });
  if (!verified.ok) {
    throw new AppError('UNAUTHENTICATED', REFUSALS[verified.reason] ?? 'Invalid access token', {
      headers: INVALID_CHALLENGE,
    });
  }
  return verified;
}

/**
 * The table's guard: a valid access token, an organization the token allows, and a role (the
 * caller's role in that organization) the table allows. Returns the actor the service is told about.
 */
export function admit(guard: Guard, verified: Verified | undefined, requestedOrg: string | undefined): Actor {
  const { caller } = assertAuthenticated(verified);
  const org = resolveOrganization(caller, requestedOrg);
  if (!org.ok) throw new AppError('FORBIDDEN', 'Not a member of the requested organization');
  if (guard.requireOrganization && !org.organizationId) {
    throw new AppError('FORBIDDEN', 'This route needs an organization and the token names none');
  }
  if (guard.roles && !guard.roles.includes(org.role)) {
    throw new AppError('FORBIDDEN', `This route needs one of the roles ${guard.roles.join(', ')}`);
  }
  const actor: Actor = { userId: caller.userId, role: org.role };
  if (org.organizationId) actor.organizationId = org.organizationId;
  if (guard.scope) actor.scope = guard.scope;
  return actor;
}
