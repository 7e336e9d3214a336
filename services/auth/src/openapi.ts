import { actorHeader, openApiDocument, type DocumentBase, type JsonObject } from '../../kit/src/index.js';
import { authRoutes } from './routes.js';

export const SERVICE_NAME = 'auth';
export const SERVICE_VERSION = '0.1.0';

/** A response object with exactly these members, every one present (in the order given). */
function closed(properties: JsonObject): JsonObject {
  return { type: 'object', additionalProperties: false, required: Object.keys(properties), properties };
}

/** What the auth service's document says beside its routes: the service, its rules, the response shapes. */
const BASE: DocumentBase = {
  kit: { service: SERVICE_NAME, metrics: 'auth_login_attempts_total{outcome}, auth_refresh_token_reuse_total' },
  info: {
    title: 'edu-platform auth service',
    version: SERVICE_VERSION,
    description:
      'Native identities and sessions: register, login, refresh (rotation, each token once), logout, me; organization memberships granted by admins, account status, and the revocation feed the gateway polls. This document states every request and response shape, including the choices the contract leaves open; those are listed under x-decisions.',
  },
  servers: [{ url: 'http://127.0.0.1:4001' }],
  'x-decisions': [
    'Register answers 201 with message OK (the contract names no message); login answers 200 with message `Logged in`; refresh, logout and me answer 200 with message OK.',
    'Register body: email, password, fullName (required); phone, role (optional). Unknown fields are refused with 400, never silently dropped.',
    "role defaults to STUDENT; STUDENT, TEACHER and PARENT may self-register; ADMIN cannot (400), in any spelling. The self-chosen role holds in the user's own organization only (the global `role` claim names it, but every organization-scoped check uses the membership's role in that organization).",
    "Tenancy (issue 20): every self-registration gets an organization of its own as its default membership: id `org_` + 32 hex digits (a new UUID without dashes), name `<fullName>'s workspace`, the chosen role, status ACTIVE; defaultOrganizationId is that organization. No self-registration ever joins a shared organization: AUTH_DEFAULT_ORGANIZATION_ID and AUTH_DEFAULT_ORGANIZATION_NAME are gone (nothing needs them; a value still set is ignored). Joining a school's organization, or holding TEACHER or ADMIN there, takes an admin's grant: PUT /v1/auth/organizations/{organizationId}/members/{userId}.",
    'accountCode: `AC` followed by 10 Crockford base32 characters, random, unique.',
    'Passwords: 8 to 256 characters (code points) at registration, any 1 to 1024 at login. Passwords are normalised to Unicode NFC, so Vietnamese diacritics typed precomposed or combining are the same password. bcrypt reads only 72 bytes, so a password longer than 72 UTF-8 bytes is hashed with SHA-256 first (its base64 goes to bcrypt): every character counts, nothing is truncated, and 25 Vietnamese letters with diacritics (75 bytes) are a valid password.',
    'bcrypt cost: 12 for passwords (AUTH_BCRYPT_COST), 10 for refresh-token digests (AUTH_TOKEN_BCRYPT_COST; the input is a 256-bit-entropy token digest, so cost buys nothing against guessing).',
    'Access-token lifetime (expiresIn) defaults to 900 seconds (AUTH_ACCESS_TTL_SECONDS); refresh tokens live 30 days (AUTH_REFRESH_TTL_SECONDS). Tokens are HS256 JWTs; only HS256 is accepted; every access token has exp.',
    'Unknown e-mail and wrong password fail alike: 401 UNAUTHENTICATED `Invalid email or password`, and an unknown e-mail is compared against a dummy hash of the same cost so both take the same time.',
    "Login throttling (issue 20), keyed on the real client: failed logins count under three keys, each a backoff (past its free failures the next attempt waits 1 s, doubling with each further failure): the (account, client address) pair, 5 free (AUTH_LOGIN_FAILURES_PER_PAIR), wait capped at the window; the client address across accounts, 100 free (AUTH_LOGIN_FAILURES_PER_ADDRESS, for spraying), capped at the window; and the account across addresses, 50 free (AUTH_LOGIN_FAILURES_PER_ACCOUNT), capped at 30 s (AUTH_LOGIN_ACCOUNT_MAX_DELAY_SECONDS): it slows a distributed guesser and never locks the owner out. One address adds at most the pair's free failures to the account's count (failures of a pair already in backoff do not count there), and an address the account logged in from in the last 30 days (AUTH_LOGIN_KNOWN_ADDRESS_SECONDS) is exempt from the account's backoff. A key forgets after AUTH_LOGIN_WINDOW_SECONDS (900) of quiet past its longest wait. While a wait runs the answer is 429 RATE_LIMITED with Retry-After (and details.retryAfterSeconds), also for the right password, before any hashing; when it ends, one attempt per key is admitted (claimed atomically, so parallel guesses do not all slip through). A successful login clears the pair's count. Throttled attempts are not counted. The client address is Express's req.ip with trust proxy = TRUST_PROXY hops: the chart sets 1, the gateway sends `X-Forwarded-For: <the one address it vouches for>`, and only the gateway can reach /v1 (the internal token).",
    "bcrypt work is bounded: AUTH_HASH_CONCURRENCY (4) running, at most AUTH_HASH_QUEUE (32) waiting, each for at most AUTH_HASH_MAX_WAIT_MS (1000); a request that finds the queue full, or waits longer, gets 429 RATE_LIMITED with Retry-After: 1 at once, never a wait that ends in the gateway's timeout.",
    'A disabled (non-ACTIVE) account gets 403 FORBIDDEN after a correct password, and its tokens stop working for me and refresh; disabling it (PATCH /v1/auth/users/{userId}/status) also revokes all its sessions, which the revocation feed then lists.',
    'Sessions are token families: each login or registration starts one; refresh rotates within it. Of concurrent refreshes with one token exactly one wins. A token presented again within AUTH_REFRESH_REUSE_GRACE_SECONDS (default 5) of its rotation is the race of two tabs refreshing at once: it is refused with 401 `Refresh token was just used by a concurrent request; use the newest refresh token` and the session stays valid. Presented later (a replay), it revokes the whole family: the replayed and the newest token both stop working (401 `Refresh token was already used; the session has been revoked`), and only these replays count in auth_refresh_token_reuse_total.',
    'Refresh without a token (an empty body token counts as none, so the Bearer header is read), or with one that is longer than 4096 characters or fails signature, type, jti, owner or stored-hash checks, is 401 UNAUTHENTICATED, never 400.',
    "Logout revokes the token and its whole session family (the access tokens' `sid`, so the gateway stops them through the revocation feed and me refuses them) and answers `{ revoked: true }`; a missing, empty, non-string, overlong, invalid, already revoked or non-matching token answers 200 `{ revoked: false }`, never 400 (the contract: not an error). Only a body that is not a JSON object, or has fields other than refreshToken, is 400.",
    'me accepts `Authorization: Bearer <ACCESS_TOKEN>` or the `platform.accessToken` cookie (the header wins; an Authorization that is not a well-formed Bearer leaves the cookie to be read). A cookie value wrapped in double quotes, which RFC 6265 allows (`platform.accessToken="<token>"`), is read without the quotes, as the gateway reads it (one rule, the kit\'s access-token module, for both); the value is then percent-decoded, and an empty or badly encoded one counts as no token. me requires claims type=access, sub, role, fullName, sid and exp, reads the user and the session fresh (a revoked session or a non-ACTIVE user is 401), and returns the same User object as a session\'s user.',
    "The User object holds exactly the contract's fields; phone is stored (unique when non-empty, empty becomes null) but not returned.",
    'Email and phone conflicts are 409 EMAIL_TAKEN and PHONE_TAKEN; nothing is written on any rejected registration.',
    'Request bodies are limited to 16 KiB.',
    'Operators alert on `auth_login_attempts_total{outcome}` (success, invalid_credentials, throttled, disabled) and `auth_refresh_token_reuse_total` on GET /metrics.',
    'Login takes any e-mail string up to 320 characters, the empty one included: one that is not registered (or not an e-mail at all) fails like a wrong password, 401, so a login reveals no registration rule.',
    "Access-token claims: the contract's (sub, type=access, role, accountCode, fullName, email, defaultOrganizationId, iat, exp) plus `sid` (the session: the token family's id, a string) and `memberships: [{ organizationId, role }]` (the user's ACTIVE memberships, oldest first, at most 100). Login and refresh read the memberships fresh, so a refresh carries every grant made since. An access token without sid or exp is refused.",
    "Organization admins: PUT and DELETE /v1/auth/organizations/{organizationId}/members/{userId} are allowed to an actor whose X-User-Role is ADMIN and whose X-Organization-Id is that organization (an org admin) or the platform organization (a platform admin), and auth checks its own records as well: the actor is an ACTIVE user with an ACTIVE ADMIN membership in X-Organization-Id; a forged role header alone is 403. No actor (X-User-Id / X-Actor-Id) is 401. PUT creates the membership or changes its role and name (the same grant again changes nothing); a role change ends all the user's sessions, since their tokens carry the old role (a new membership does not: the next refresh carries it). DELETE removes the membership and ends all the user's sessions; the membership of the user's default organization cannot be removed (409 MEMBERSHIP_CONFLICT). A user holds at most 100 memberships (409 MEMBERSHIP_CONFLICT), so every one fits in the token. Every change emits identity.user-changed.v1 (change UPDATED, the whole snapshot) through the outbox, in the user update itself; updatedAt strictly grows, so each change has its own event id, and the update is conditional on the version read (a concurrent change retries; five in a row is 409 CONFLICT). Invitations that the invited user accepts are not implemented: the admin's grant is the consent of the organization, and user ids are opaque.",
    "Platform admin: an ACTIVE user with an ACTIVE ADMIN membership in the organization AUTH_PLATFORM_ORGANIZATION_ID (default `platform`), acting with X-Organization-Id = that organization and X-User-Role = ADMIN. Only a platform admin may PATCH /v1/auth/users/{userId}/status ({ status: ACTIVE | DISABLED }) or grant in an organization it is not an ADMIN of. The first platform admin is made by an operator, once, by inserting that membership into the auth database's memberships collection (no API makes one; ADMIN is never self-assignable).",
    "Revocation feed: GET /v1/auth/revocations?since=<ISO-8601> answers { items: [{ sid, userId, revokedAt }], until } for sessions revoked in (since, until], oldest first, at most 1000 a page (when more, until is the last whole millisecond in the page; one millisecond is never split across pages, the only case a page may exceed 1000). until is now minus AUTH_REVOCATION_FEED_LAG_MS (2000), never before since, so a revocation still being written is never skipped (it shows up at most that much later). It is internal: behind the internal token like all of /v1, and refused (403) to any request carrying X-User-Id or X-Actor-Id, which the gateway sets only when forwarding a user's call. A gateway starting afresh should ask from now minus the longest access-token lifetime. Indexed by token_families { revokedAt, _id }.",
    "Registration is throttled per client address before any hashing: at most AUTH_REGISTER_MAX_PER_ADDRESS (20) attempts per fixed, clock-aligned AUTH_REGISTER_WINDOW_SECONDS (600) window, each attempt counted atomically first (refused and conflicting ones too, as they cost hashing as well); past it 429 RATE_LIMITED with Retry-After (seconds to the window's end) and details.retryAfterSeconds. Invalid bodies (400) are not counted.",
  ],
  components: {
    securitySchemes: {
      internalToken: {
        type: 'apiKey',
        in: 'header',
        name: 'X-Internal-Token',
        description: 'Required on /v1/auth/* when INTERNAL_API_TOKEN is configured.',
      },
    },
    parameters: {
      UserHeader: actorHeader(
        'X-User-Id',
        'The acting user (X-Actor-Id is read when absent); without it the answer is 401.',
      ),
      RoleHeader: actorHeader(
        'X-User-Role',
        "Must be ADMIN (X-Actor-Role is read when absent): the role the gateway took from the token's membership in X-Organization-Id.",
      ),
      OrganizationHeader: actorHeader(
        'X-Organization-Id',
        "The organization the actor acts in: the path's organization, or AUTH_PLATFORM_ORGANIZATION_ID for a platform admin.",
      ),
    },
    schemas: {
      Membership: closed({
        organizationId: { type: 'string' },
        organizationName: { type: 'string' },
        role: { type: 'string', enum: ['STUDENT', 'TEACHER', 'PARENT', 'ADMIN'] },
        status: { type: 'string', enum: ['ACTIVE'] },
      }),
      User: closed({
        id: { type: 'string' },
        accountCode: { type: 'string', pattern: '^AC[0-9A-HJKMNP-TV-Z]{10}$' },
        email: { type: 'string' },
        fullName: { type: 'string' },
        role: { type: 'string', enum: ['STUDENT', 'TEACHER', 'PARENT', 'ADMIN'] },
        status: {
          type: 'string',
          description:
            'ACTIVE for usable accounts (the only value the contract names); any other value, such as a legacy or disabled state, is treated as not active.',
        },
        createdAt: { type: 'string', format: 'date-time' },
        updatedAt: { type: 'string', format: 'date-time' },
        memberships: { type: 'array', items: { $ref: '#/components/schemas/Membership' } },
        defaultOrganizationId: { type: 'string' },
      }),
      Session: closed({
        user: { $ref: '#/components/schemas/User' },
        accessToken: {
          type: 'string',
          description:
            'HS256 JWT; claims sub, type=access, role, accountCode, fullName, email, defaultOrganizationId, iat, exp.',
        },
        refreshToken: {
          type: 'string',
          description: 'HS256 JWT; claims sub, type=refresh, jti, iat, exp. Works once.',
        },
        tokenType: { const: 'Bearer' },
        expiresIn: { type: 'integer', description: 'Seconds of access-token life (default 900).' },
      }),
      RevocationPage: closed({
        items: {
          type: 'array',
          items: closed({
            sid: { type: 'string', description: 'The revoked session: the `sid` claim of its access tokens.' },
            userId: { type: 'string' },
            revokedAt: { type: 'string', format: 'date-time' },
          }),
        },
        until: { type: 'string', format: 'date-time', description: 'Pass as `since` next time.' },
      }),
    },
  },
};

/** The auth service's OpenAPI document, generated from its route declarations. */
export function authDocument(): JsonObject {
  return openApiDocument(BASE, authRoutes);
}
