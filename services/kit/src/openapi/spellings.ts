import type { JsonObject } from './json-schema.js';

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
 * What flat aliases relax: a member an alias gives (`exam.id` by `examId`) is not required inside
 * its object, and a required member the alias can stand for alone (`score` by `totalScore`,
 * `student` whose only required member is `student.id`, by `studentId`) becomes "one of the two".
 */
export function spelledRequirements(out: JsonObject, spellings: readonly Spelling[]): JsonObject[] {
  return spellings
    .filter(({ alias }) => !alias.includes('.'))
    .map((spelling) => relaxed(out, spelling))
    .filter((r): r is JsonObject => r !== undefined);
}

function relaxed(out: JsonObject, { path, alias }: Spelling): JsonObject | undefined {
  const [top = '', leaf, ...deeper] = path.split('.');
  if (deeper.length > 0) return undefined;
  const inner = (out.properties as Record<string, JsonObject> | undefined)?.[top];
  if (leaf !== undefined) {
    if (inner?.type === undefined) return undefined;
    notRequired(inner, leaf);
    if (inner.required !== undefined) return undefined;
  }
  if (!Array.isArray(out.required) || !out.required.includes(top)) return undefined;
  notRequired(out, top);
  return { anyOf: [{ required: [top] }, { required: [alias] }] };
}

/** Drops `name` from an object schema's `required` (the whole list when it was the last). */
function notRequired(schema: JsonObject, name: string): void {
  if (!Array.isArray(schema.required)) return;
  const rest = schema.required.filter((n) => n !== name);
  if (rest.length > 0) schema.required = rest;
  else delete schema.required;
}
