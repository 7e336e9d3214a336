import type { JsonObject } from './json.js';

/** Two spellings of one member, as `tolerant()` declares them (`path` is where joi reads it). */
export interface Spelling {
  path: string;
  alias: string;
}

/** A nested alias (`student.id` for `studentId`): an object that must hold the member when sent. */
export function nestedSpelling(leaf: string, schema: JsonObject, description: string): JsonObject {
  const { description: _own, ...member } = schema;
  return { type: 'object', additionalProperties: true, required: [leaf], properties: { [leaf]: member }, description };
}

/**
 * What aliases relax: a member a flat alias gives (`exam.id` by `examId`) is not required inside
 * its object, and a required member an alias can stand for alone (`score` by `totalScore`,
 * `student` whose only required member is `student.id` by `studentId`, `studentId` by
 * `student.id`) becomes "one of the two".
 */
export function spelledRequirements(out: JsonObject, spellings: readonly Spelling[]): JsonObject[] {
  return spellings.map((spelling) => relaxed(out, spelling)).filter((r): r is JsonObject => r !== undefined);
}

function relaxed(out: JsonObject, { path, alias }: Spelling): JsonObject | undefined {
  const [top = '', leaf, ...deeper] = path.split('.');
  const [container = ''] = alias.split('.');
  if (deeper.length > 0 || (leaf !== undefined && container !== alias)) return undefined;
  if (leaf !== undefined && !relaxedInside(out, top, leaf)) return undefined;
  if (!Array.isArray(out.required) || !out.required.includes(top)) return undefined;
  notRequired(out, top);
  return { anyOf: [{ required: [top] }, { required: [container] }] };
}

/** Drops `leaf` from the required members of `top`; whether `top` then requires nothing. */
function relaxedInside(out: JsonObject, top: string, leaf: string): boolean {
  const inner = (out.properties as Record<string, JsonObject> | undefined)?.[top];
  if (inner?.type === undefined) return false;
  notRequired(inner, leaf);
  return inner.required === undefined;
}

/** Drops `name` from an object schema's `required` (the whole list when it was the last). */
function notRequired(schema: JsonObject, name: string): void {
  if (!Array.isArray(schema.required)) return;
  const rest = schema.required.filter((n) => n !== name);
  if (rest.length > 0) schema.required = rest;
  else delete schema.required;
}

const requiredSets = (peers: string[]): JsonObject[] => peers.map((p) => ({ required: [p] }));

/** joi's peer rules as JSON Schema: or (one at least), xor (exactly one), oxor (at most one), and. */
export function dependency({ rel, peers }: { rel: string; peers: string[] }): JsonObject {
  if (rel === 'or') return { anyOf: requiredSets(peers) };
  if (rel === 'xor') return { oneOf: requiredSets(peers) };
  if (rel === 'oxor') return { not: { anyOf: pairs(peers).map((pair) => ({ required: pair })) } };
  if (rel === 'and') return { anyOf: [{ required: peers }, { not: { anyOf: requiredSets(peers) } }] };
  throw new Error(`joi object rule ${rel} has no document form; use documentedAs()`);
}

function pairs(peers: string[]): string[][] {
  return peers.flatMap((a, i) => peers.slice(i + 1).map((b) => [a, b]));
}
