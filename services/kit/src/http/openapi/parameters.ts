import { ROLES } from '../../core/index.js';
import type { JsonObject } from './json.js';

const ID = '[A-Za-z0-9_.:@-]{1,128}';

/** Each role, any case (the kit's reader upper-cases it): `[Aa][Dd][Mm][Ii][Nn]|...`. */
const ANY_CASE_ROLE = ROLES.map((role) => [...role].map((c) => `[${c}${c.toLowerCase()}]`).join('')).join('|');

/**
 * An actor header as the kit's `readActor` reads it (`X-User-Id`/`X-Actor-Id`,
 * `X-User-Role`/`X-Actor-Role`, `X-Organization-Id`): an id of `[A-Za-z0-9_.:@-]`, or a role in any
 * case; an optional one may be empty, which is the same as absent. `description` says what the
 * route does with it.
 */
export function actorHeader(name: string, description: string, required = false): JsonObject {
  const role = name.endsWith('-Role');
  const value = role ? ANY_CASE_ROLE : ID;
  const pattern = required ? `^(${value})$` : `^(${value})?$`;
  return { name, in: 'header', required, schema: { type: 'string', pattern }, description };
}
