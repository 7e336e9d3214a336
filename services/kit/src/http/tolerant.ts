import Joi from 'joi';

/** Two spellings of one member: `path` is where the service reads it, `alias` another name for it. */
export interface Spelling {
  /** Dot path the schema validates (`exam.id`). */
  path: string;
  /** Dot path a caller may use instead (`examId`). */
  alias: string;
}

export interface SpellingConflict {
  path: string;
  message: string;
}

const spellingsOf = new WeakMap<Joi.Schema, readonly Spelling[]>();

/**
 * The tolerant reader for internal snapshot, backfill and event bodies whose full shape the
 * contracts leave open: members the schema does not name are dropped at every depth (never
 * refused, never stored), while the types of named members are still checked. Objects declared
 * `.unknown(true)` (free-form payloads) keep theirs. `spellings` lets a caller use either name of
 * a member (`exam: { id }` or `examId`): `validate()` copies an alias to its path before
 * validating, and when both are sent they must be equal (else 400 VALIDATION_ERROR naming the
 * alias).
 */
export function tolerant<T>(schema: Joi.ObjectSchema<T>, spellings: readonly Spelling[] = []): Joi.ObjectSchema<T> {
  // The spellings travel in the schema's metadata too, for its document (alias members).
  const out = schema.prefs({ stripUnknown: { objects: true } }).meta({ spellings });
  return out;
}

/** The spellings `tolerant()` registered for a schema (none for any other schema). */
export function spellingsFor(schema: Joi.Schema): readonly Spelling[] {
  let found = spellingsOf.get(schema);
  if (found === undefined) {
    // Read once per schema from its metadata (kept when the schema is named or documented).
    const metas = (schema.describe() as { metas?: Array<{ spellings?: readonly Spelling[] }> }).metas ?? [];
    found = metas.flatMap((m) => m.spellings ?? []);
    spellingsOf.set(schema, found);
  }
  return found;
}

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function read(root: Obj, path: string[]): unknown {
  let node: unknown = root;
  for (const key of path) {
    if (!isObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

// The object that holds `path`'s last key, created where absent (the caller checked for blockers).
function parentFor(root: Obj, path: string[]): Obj {
  let node = root;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (isObject(next) && Object.hasOwn(node, key)) node = next;
    else {
      const created: Obj = {};
      define(node, key, created);
      node = created;
    }
  }
  return node;
}

// The first value on the way to `path` that is not an object (undefined when there is none).
function blocker(root: Obj, path: string[]): unknown {
  for (let i = 1; i < path.length; i++) {
    const v = read(root, path.slice(0, i));
    if (v !== undefined && !isObject(v)) return v;
  }
  return undefined;
}

const conflict = ({ path, alias }: Spelling): SpellingConflict => ({
  path: alias,
  message: `${alias} must equal ${path} when both are given`,
});

function define(target: Obj, key: string, value: unknown): void {
  // defineProperty, so a key named __proto__ is data and not a prototype.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

// A nested spelling's container, when given, must be an object holding the member
// (`attempt: [..]` or `attempt: {}` beside `attemptId` is refused as the document types it, never
// dropped as an unknown member).
function misplaced(root: Obj, spelling: Spelling): SpellingConflict | undefined {
  const keys = spelling.alias.split('.');
  for (let i = 1; i < keys.length; i++) {
    const v = read(root, keys.slice(0, i));
    if (v === undefined) return undefined;
    const at = keys.slice(0, i).join('.');
    if (!isObject(v)) return { path: at, message: `${at} must be an object` };
  }
  if (keys.length > 1 && read(root, keys) === undefined) {
    return {
      path: spelling.alias,
      message: `${spelling.alias} is required when ${keys.slice(0, -1).join('.')} is given`,
    };
  }
  return undefined;
}

function applyOne(root: Obj, spelling: Spelling): SpellingConflict | undefined {
  const given = read(root, spelling.alias.split('.'));
  if (given === undefined) return undefined;
  return copyAlias(root, spelling, given);
}

// Copies a given alias to its path, unless the path already holds a value (then both must agree).
function copyAlias(root: Obj, spelling: Spelling, given: unknown): SpellingConflict | undefined {
  const keys = spelling.path.split('.');
  const current = read(root, keys);
  if (current !== undefined) return same(current, given) ? undefined : conflict(spelling);
  const blocked = blocker(root, keys);
  // `classroom: null` with `classroomId`: agree only on null. Any other non-object is joi's to refuse.
  if (blocked === null) return given === null ? undefined : conflict(spelling);
  if (blocked !== undefined) return undefined;
  // A null alias never creates an object: `classroomId: null` alone means no classroom.
  if (given === null && keys.length > 1 && read(root, keys.slice(0, -1)) === undefined) return undefined;
  define(parentFor(root, keys), keys.at(-1)!, given);
  return undefined;
}

/**
 * Copies every alias the body carries to its path (on a copy; the body is JSON) and returns the
 * copy with one conflict per alias whose value differs from the value already at its path.
 */
export function applySpellings(
  body: unknown,
  spellings: readonly Spelling[],
): { value: unknown; conflicts: SpellingConflict[] } {
  if (spellings.length === 0 || !isObject(body)) return { value: body, conflicts: [] };
  const root = structuredClone(body);
  const conflicts = spellings
    .map((s) => misplaced(root, s) ?? applyOne(root, s))
    .filter((c): c is SpellingConflict => c !== undefined);
  return { value: root, conflicts };
}
