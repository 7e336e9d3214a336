// The compatibility rule of the event catalogue (docs/events.md): within a `.v1` topic only
// additive changes. Pure: the caller reads the two catalogues (files, or git at a release tag).

/** One version of the catalogue: its topics, event schemas by type, shared definitions by path. */
export interface CatalogueSnapshot {
  topics: ReadonlyArray<{ name: string; key?: string; events: readonly string[] }>;
  /** kafka/schemas/<type>.json by event type. */
  schemas: Readonly<Record<string, unknown>>;
  /** kafka/schemas/defs/<file> by its path relative to kafka/schemas (`defs/common.json`). */
  defs: Readonly<Record<string, unknown>>;
}

type Schema = Record<string, unknown>;

const EXTENSIBLE_ENUM = 'x-extensible-enum';
const MAX_REF_DEPTH = 32;

function isObject(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function pointer(doc: unknown, fragment: string): unknown {
  let at: unknown = doc;
  for (const part of fragment.split('/').filter(Boolean)) at = isObject(at) ? at[part] : undefined;
  return at;
}

/** Resolves `file#/pointer` (file relative to kafka/schemas, or empty for the same document). */
function resolveRef(ref: string, doc: unknown, defs: CatalogueSnapshot['defs']): { target: unknown; doc: unknown } {
  const [file = '', fragment = ''] = ref.split('#');
  const base = file ? defs[file.replace(/^\.\//, '')] : doc;
  return { target: pointer(base, fragment), doc: base };
}

function mergeObjects(into: Schema, from: Schema): Schema {
  const out: Schema = { ...from, ...into };
  if (isObject(from.properties) || isObject(into.properties))
    out.properties = { ...(from.properties as Schema), ...(into.properties as Schema) };
  const required = [...((from.required as string[]) ?? []), ...((into.required as string[]) ?? [])];
  if (required.length > 0) out.required = [...new Set(required)];
  return out;
}

interface Ctx {
  doc: unknown;
  defs: CatalogueSnapshot['defs'];
  depth: number;
}

function foldReferences(schema: Schema, ctx: Ctx): Schema {
  let node: Schema = { ...schema };
  const parts: Array<{ target: unknown; doc: unknown }> = [];
  if (typeof node.$ref === 'string') parts.push(resolveRef(node.$ref, ctx.doc, ctx.defs));
  for (const part of Array.isArray(node.allOf) ? node.allOf : []) parts.push({ target: part, doc: ctx.doc });
  for (const key of ['$ref', 'allOf', 'if', 'then', 'else']) delete node[key];
  for (const p of parts) {
    const resolved = normalizeIn(p.target, { doc: p.doc, defs: ctx.defs, depth: ctx.depth + 1 });
    if (isObject(resolved)) node = mergeObjects(node, resolved);
  }
  return node;
}

function normalizeChild(key: string, value: unknown, ctx: Ctx): unknown {
  if (key === 'properties' && isObject(value))
    return Object.fromEntries(Object.entries(value).map(([n, s]) => [n, normalizeIn(s, ctx)]));
  if (key === 'items' || key === 'oneOf' || key === 'anyOf') return normalizeIn(value, ctx);
  return value;
}

function normalizeIn(schema: unknown, ctx: Ctx): unknown {
  if (Array.isArray(schema)) return schema.map((s) => normalizeIn(s, ctx));
  if (!isObject(schema) || ctx.depth > MAX_REF_DEPTH) return schema;
  const node = foldReferences(schema, ctx);
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, normalizeChild(k, v, ctx)]));
}

/**
 * The effective schema with `$ref` and `allOf` folded in (properties and required merged, the
 * referring schema's own keywords winning), so `$ref`-beside-properties and `allOf: [$ref]`
 * spellings compare equal. Conditions (if/then/else) are dropped: they only select.
 */
export function normalize(schema: unknown, doc: unknown, defs: CatalogueSnapshot['defs']): unknown {
  return normalizeIn(schema, { doc, defs, depth: 0 });
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** The JSON types a schema admits, or undefined when it does not say (any). */
export function typesOf(s: Schema): string[] | undefined {
  if ('const' in s) return [jsonType(s.const)];
  if (Array.isArray(s.type)) return [...(s.type as string[])].sort();
  if (typeof s.type === 'string') return [s.type];
  if (Array.isArray(s.enum)) return [...new Set((s.enum as unknown[]).map(jsonType))].sort();
  const alternatives = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
  if (!Array.isArray(alternatives)) return undefined;
  const types = alternatives.map((a) => (isObject(a) ? typesOf(a) : undefined));
  return types.some((t) => t === undefined) ? undefined : [...new Set(types.flat() as string[])].sort();
}

const show = (v: unknown) => JSON.stringify(v);
const sameJson = (a: unknown, b: unknown) => show(a) === show(b);

function typeProblems(o: Schema, n: Schema, at: string): string[] {
  const [ot, nt] = [typesOf(o), typesOf(n)];
  if (!sameJson(ot, nt)) return [`${at}: changed type ${ot?.join('|') ?? 'any'} -> ${nt?.join('|') ?? 'any'}`];
  if ('const' in o && !sameJson(o.const, n.const)) return [`${at}: changed const ${show(o.const)} -> ${show(n.const)}`];
  return [];
}

function enumValueProblems(oldValues: unknown[], newValues: unknown[], extensible: boolean, at: string): string[] {
  const out: string[] = [];
  const removed = oldValues.filter((v) => !newValues.some((w) => sameJson(v, w)));
  if (removed.length > 0) out.push(`${at}: narrowed enum (removed ${show(removed)})`);
  const added = newValues.filter((v) => !oldValues.some((w) => sameJson(v, w)));
  if (added.length > 0 && !extensible) out.push(`${at}: added ${show(added)} to an enum not marked ${EXTENSIBLE_ENUM}`);
  return out;
}

function enumProblems(o: Schema, n: Schema, at: string): string[] {
  const oldValues = Array.isArray(o.enum) ? (o.enum as unknown[]) : undefined;
  const newValues = Array.isArray(n.enum) ? (n.enum as unknown[]) : undefined;
  if (!oldValues) return newValues ? [`${at}: narrowed enum (now only ${show(newValues)})`] : [];
  const extensible = o[EXTENSIBLE_ENUM] === true;
  if (!newValues) return extensible ? [] : [`${at}: enum dropped from a closed enum (any value now)`];
  const out = enumValueProblems(oldValues, newValues, extensible, at);
  if (extensible && n[EXTENSIBLE_ENUM] !== true) out.push(`${at}: enum no longer marked ${EXTENSIBLE_ENUM}`);
  return out;
}

const closed = (s: Schema) => s.additionalProperties === false || s.unevaluatedProperties === false;

function objectProblems(o: Schema, n: Schema, at: string): string[] {
  const out: string[] = [];
  const oldProps = isObject(o.properties) ? o.properties : {};
  const newProps = isObject(n.properties) ? n.properties : {};
  for (const name of Object.keys(oldProps)) {
    if (!(name in newProps)) out.push(`${at}.${name}: removed property`);
    else out.push(...schemaProblems(oldProps[name], newProps[name], `${at}.${name}`));
  }
  out.push(...requiredProblems(o, n, at));
  if (!closed(o) && closed(n)) out.push(`${at}: closed to unknown members`);
  return out;
}

function requiredProblems(o: Schema, n: Schema, at: string): string[] {
  const oldRequired = new Set((o.required as string[] | undefined) ?? []);
  const newRequired = (n.required as string[] | undefined) ?? [];
  return newRequired.filter((name) => !oldRequired.has(name)).map((name) => `${at}.${name}: newly required`);
}

function alternativeProblems(o: Schema, n: Schema, at: string): string[] {
  const out: string[] = [];
  if (o.items !== undefined && n.items !== undefined) out.push(...schemaProblems(o.items, n.items, `${at}[]`));
  for (const key of ['oneOf', 'anyOf']) {
    const [a, b] = [o[key], n[key]];
    if (!Array.isArray(a) || !Array.isArray(b)) continue;
    if (a.length !== b.length) out.push(`${at}: ${key} changed from ${a.length} to ${b.length} alternatives`);
    else a.forEach((alt, i) => out.push(...schemaProblems(alt, b[i], `${at}<${key}[${i}]>`)));
  }
  return out;
}

/** Breaking differences between two normalized schemas (see normalize), each naming its path. */
export function schemaProblems(oldSchema: unknown, newSchema: unknown, at = ''): string[] {
  if (!isObject(oldSchema) || !isObject(newSchema)) return [];
  const typed = typeProblems(oldSchema, newSchema, at || '/');
  if (typed.length > 0) return typed;
  return [
    ...enumProblems(oldSchema, newSchema, at || '/'),
    ...objectProblems(oldSchema, newSchema, at),
    ...alternativeProblems(oldSchema, newSchema, at),
  ];
}

function catalogueProblems(old: CatalogueSnapshot, next: CatalogueSnapshot): string[] {
  const out: string[] = [];
  for (const t of old.topics) {
    const now = next.topics.find((x) => x.name === t.name);
    if (!now) {
      out.push(`topic ${t.name}: removed (a topic is retired only with a new topic version)`);
      continue;
    }
    if (t.key !== undefined && now.key !== t.key) out.push(`topic ${t.name}: key changed ${t.key} -> ${now.key}`);
    for (const e of t.events) if (!now.events.includes(e)) out.push(`topic ${t.name}: no longer carries ${e}`);
  }
  for (const type of Object.keys(old.schemas))
    if (!(type in next.schemas)) out.push(`event type ${type}: schema removed`);
  return out;
}

/**
 * Every change from `old` to `next` that breaks the compatibility rule: a removed topic, event
 * type or property, a changed type or const, a newly required property, a narrowed enum (or one
 * widened without x-extensible-enum), a changed key, or an object closed to unknown members.
 * Empty when `next` only adds.
 */
export function compatibilityProblems(old: CatalogueSnapshot, next: CatalogueSnapshot): string[] {
  const out = catalogueProblems(old, next);
  for (const [type, schema] of Object.entries(old.schemas)) {
    if (!(type in next.schemas)) continue;
    const a = normalize(schema, schema, old.defs);
    const b = normalize(next.schemas[type], next.schemas[type], next.defs);
    out.push(...schemaProblems(a, b).map((p) => `${type}: ${p}`));
  }
  return out;
}
