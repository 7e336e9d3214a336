import type Joi from 'joi';
import { isJson, isScalar, jsonType, type Json, type JsonObject, type Scalar } from './json.js';
import { dependency, nestedSpelling, spelledRequirements, type Spelling } from './object-rules.js';

export type { Json, JsonObject } from './json.js';

/**
 * What `documented()` and `named()` attach to a joi schema; the converter reads it back from
 * `describe()`. `openapi` is merged over what the rules give; `openapiOnly` replaces it (a `when()`
 * or a `custom()` rule the converter cannot read states its document form this way); allowed
 * extras (`null`), the description and the default are added to either.
 */
interface DocMeta {
  openapi?: JsonObject;
  openapiOnly?: JsonObject;
  openapiName?: string;
  spellings?: readonly Spelling[];
}

/** The part of joi's `describe()` output the converter reads. */
interface Description {
  type: string;
  flags?: {
    presence?: 'required' | 'optional' | 'forbidden';
    description?: string;
    default?: unknown;
    only?: boolean;
    unknown?: boolean;
    single?: boolean;
  };
  rules?: Array<{ name: string; args?: Record<string, unknown> }>;
  allow?: unknown[];
  keys?: Record<string, Description>;
  patterns?: Array<{ regex?: string; rule?: Description }>;
  items?: Description[];
  matches?: Array<{ schema?: Description }>;
  metas?: DocMeta[];
  preferences?: { stripUnknown?: unknown };
  dependencies?: Array<{ rel: string; peers: string[] }>;
  whens?: unknown[];
}

/** Where named schemas go: `named()` schemas become `$ref`s to `#/components/schemas/<name>`. */
export type SchemaComponents = Map<string, JsonObject>;

/**
 * Documents a joi schema: `doc` is merged over the JSON Schema its rules give (a description, an
 * example, a pattern that states what a `custom()` rule checks). The schema keeps its type.
 */
export function documented<S extends Joi.Schema>(schema: S, doc: JsonObject): S {
  return schema.meta({ openapi: doc }) as S;
}

/** Documents a joi schema whose rules the converter cannot read (`when()`): `doc` is its whole form. */
export function documentedAs<S extends Joi.Schema>(schema: S, doc: JsonObject): S {
  return schema.meta({ openapiOnly: doc }) as S;
}

/** Names a schema: the document holds it once under `components.schemas` and refers to it. */
export function named<S extends Joi.Schema>(name: string, schema: S): S {
  return schema.meta({ openapiName: name }) as S;
}

interface Context {
  components?: SchemaComponents;
  /** An enclosing `tolerant()` schema drops unknown members at every depth. */
  strip: boolean;
}

/**
 * The JSON Schema (OpenAPI 3.1) a joi schema validates, from its `describe()`: types, limits,
 * patterns, formats, enums, allowed extras (`null`, `''`), defaults, descriptions, object members
 * and their presence, unknown members (refused, kept or dropped), peer dependencies, arrays and
 * alternatives. A `when()` without `documentedAs()` throws: the document would be wrong.
 */
export function jsonSchemaOf(schema: Joi.Schema, components?: SchemaComponents): JsonObject {
  return convert(schema.describe() as Description, { components, strip: false });
}

/** The object schema's members, for parameters: each key's schema and whether it is required. */
export function membersOf(
  schema: Joi.Schema,
  components?: SchemaComponents,
): Array<{ name: string; schema: JsonObject; required: boolean }> {
  const d = schema.describe() as Description;
  const ctx = { components, strip: false };
  return Object.entries(d.keys ?? {})
    .filter(([, key]) => key.flags?.presence !== 'forbidden')
    .map(([name, key]) => ({ name, schema: convert(key, ctx), required: key.flags?.presence === 'required' }));
}

function convert(d: Description, ctx: Context): JsonObject {
  const meta = mergedMeta(d.metas);
  if (!meta.openapiOnly && d.whens?.length) {
    throw new Error('a joi when() cannot be documented by its rules; use documentedAs()');
  }
  const inner: Context = { ...ctx, strip: ctx.strip || d.preferences?.stripUnknown !== undefined };
  const stated = meta.openapiOnly ? { ...meta.openapiOnly } : { ...byType(d, inner), ...meta.openapi };
  return nameIt(meta.openapiName, annotated(withAllowed(d, stated), d), ctx);
}

/** The description and a JSON default, unless the stated form has its own. */
function annotated(out: JsonObject, d: Description): JsonObject {
  const { description, default: fallback } = d.flags ?? {};
  if (description !== undefined && out.description === undefined) out.description = description;
  if (isJson(fallback) && !isDeepDefault(fallback) && out.default === undefined) out.default = fallback;
  return out;
}

/** An object's `.default()` (its members' defaults) is described as this marker: no JSON default. */
const isDeepDefault = (value: Json) => JSON.stringify(value) === '{"special":"deep"}';

function spellingsOf(d: Description): readonly Spelling[] {
  return mergedMeta(d.metas).spellings ?? [];
}

function mergedMeta(metas: DocMeta[] | undefined): DocMeta {
  return Object.assign({}, ...(metas ?? [])) as DocMeta;
}

function nameIt(name: string | undefined, schema: JsonObject, ctx: Context): JsonObject {
  if (!name || !ctx.components) return schema;
  const known = ctx.components.get(name);
  if (known && JSON.stringify(known) !== JSON.stringify(schema)) {
    throw new Error(`two different schemas are named ${name}`);
  }
  ctx.components.set(name, schema);
  return { $ref: `#/components/schemas/${name}` };
}

const CONVERTERS: Record<string, (d: Description, ctx: Context) => JsonObject> = {
  string: stringSchema,
  number: numberSchema,
  boolean: () => ({ type: 'boolean' }),
  date: () => ({ type: 'string', format: 'date-time' }),
  object: objectSchema,
  array: arraySchema,
  alternatives: (d, ctx) => ({ anyOf: (d.matches ?? []).flatMap((m) => (m.schema ? [convert(m.schema, ctx)] : [])) }),
  binary: () => ({ type: 'string', format: 'binary' }),
};

function byType(d: Description, ctx: Context): JsonObject {
  return CONVERTERS[d.type]?.(d, ctx) ?? {};
}

function rule(d: Description, name: string): Record<string, unknown> | undefined {
  const found = d.rules?.find((r) => r.name === name);
  return found ? (found.args ?? {}) : undefined;
}

function limit(d: Description, name: string): number | undefined {
  const args = rule(d, name);
  return typeof args?.limit === 'number' ? args.limit : undefined;
}

/** joi string rules and the JSON Schema format each one means. */
const STRING_FORMATS = Object.entries({
  email: 'email',
  guid: 'uuid',
  isoDate: 'date-time',
  uri: 'uri',
  hostname: 'hostname',
  ip: 'ip',
});

/** joi's min, max and length rules as the two keywords given (`length` sets both). */
function sized(d: Description, minKeyword: string, maxKeyword: string): JsonObject {
  const length = limit(d, 'length');
  const min = length ?? limit(d, 'min');
  const max = length ?? limit(d, 'max');
  return { ...(min !== undefined ? { [minKeyword]: min } : {}), ...(max !== undefined ? { [maxKeyword]: max } : {}) };
}

function stringSchema(d: Description): JsonObject {
  const out: JsonObject = { type: 'string', ...sized(d, 'minLength', 'maxLength') };
  const pattern = rule(d, 'pattern');
  if (pattern && typeof pattern.regex === 'string') out.pattern = regexSource(pattern.regex);
  const format = STRING_FORMATS.find(([name]) => rule(d, name) !== undefined);
  if (format) out.format = format[1];
  return out;
}

/** joi describes a pattern as `/source/flags`; the document holds the source. */
function regexSource(literal: string): string {
  return literal.slice(1, literal.lastIndexOf('/')).replace(/(?<!\\)\\\//g, '/');
}

function numberSchema(d: Description): JsonObject {
  const out: JsonObject = { type: rule(d, 'integer') ? 'integer' : 'number' };
  const bounds: Array<[string, string]> = [
    ['min', 'minimum'],
    ['max', 'maximum'],
    ['greater', 'exclusiveMinimum'],
    ['less', 'exclusiveMaximum'],
  ];
  for (const [name, keyword] of bounds) {
    const value = limit(d, name);
    if (value !== undefined) out[keyword] = value;
  }
  const multiple = rule(d, 'multiple');
  if (typeof multiple?.base === 'number') out.multipleOf = multiple.base;
  return out;
}

function objectSchema(d: Description, ctx: Context): JsonObject {
  const out: JsonObject = { type: 'object' };
  const keys = Object.entries(d.keys ?? {}).filter(([, key]) => key.flags?.presence !== 'forbidden');
  const required = keys.filter(([, key]) => key.flags?.presence === 'required').map(([name]) => name);
  if (required.length > 0) out.required = required;
  Object.assign(out, otherMembers(d, ctx));
  const members = { ...properties(d, keys, ctx), ...refusedMembers(d, out) };
  if (Object.keys(members).length > 0) out.properties = members;
  Object.assign(out, sized(d, 'minProperties', 'maxProperties'));
  const dependencies = [...(d.dependencies ?? []).map(dependency), ...spelledRequirements(out, spellingsOf(d))];
  if (dependencies.length === 1) Object.assign(out, dependencies[0]);
  else if (dependencies.length > 1) out.allOf = dependencies;
  return out;
}

/**
 * Members the object does not name: kept (unknown(true), or no keys nor patterns), dropped by an
 * enclosing tolerant() schema unless refused explicitly (unknown(false)), otherwise refused; or
 * matched by its `pattern()` rules.
 */
function otherMembers(d: Description, ctx: Context): JsonObject {
  const unknown = d.flags?.unknown;
  const open = unknown === true || (ctx.strip && unknown !== false) || (d.keys === undefined && !d.patterns?.length);
  return { additionalProperties: open, ...(d.patterns ? patternMembers(d, open, ctx) : {}) };
}

/**
 * `object().pattern(regex, schema)`: members whose names match take `schema`. With no named
 * members, that is every member: `propertyNames` states the names, `additionalProperties` their
 * values (joi refuses other names unless unknown members are allowed).
 */
function patternMembers(d: Description, open: boolean, ctx: Context): JsonObject {
  const members = (d.patterns ?? []).flatMap((p) =>
    p.regex && p.rule ? [[regexSource(p.regex), convert(p.rule, ctx)] as const] : [],
  );
  const [only, ...more] = members;
  if (!only || more.length > 0 || open || d.keys !== undefined)
    return { patternProperties: Object.fromEntries(members) };
  return { propertyNames: { pattern: only[0] }, additionalProperties: only[1] };
}

/**
 * An object open to other members still refuses a forbidden one: such members are stated as
 * `{ not: {} }` (nothing matches), with their description. A closed object refuses them anyway.
 */
function refusedMembers(d: Description, out: JsonObject): JsonObject {
  if (out.additionalProperties !== true) return {};
  const forbidden = Object.entries(d.keys ?? {}).filter(([, key]) => key.flags?.presence === 'forbidden');
  return Object.fromEntries(forbidden.map(([name, key]) => [name, annotated({ not: {} }, key)]));
}

function properties(d: Description, keys: Array<[string, Description]>, ctx: Context): JsonObject {
  const props: JsonObject = {};
  for (const [name, key] of keys) props[name] = convert(key, ctx);
  for (const { path, alias } of spellingsOf(d)) {
    const target = memberAt(d, path.split('.'));
    const [container, leaf, ...deeper] = alias.split('.');
    if (!target || !container || deeper.length > 0 || props[container] !== undefined) continue;
    const schema = aliasForm(d, path, convert(target, ctx));
    const description = `Another spelling of \`${path}\`; when both are sent they must be equal.`;
    props[container] = leaf === undefined ? { ...schema, description } : nestedSpelling(leaf, schema, description);
  }
  return props;
}

/**
 * The alias's form: the member's without its default; a flat alias of a member inside an optional
 * object also takes null (a null alias alone creates no object: `classroomId: null`, no classroom).
 */
function aliasForm(d: Description, path: string, schema: JsonObject): JsonObject {
  delete schema.default;
  const [top = '', ...rest] = path.split('.');
  const container = d.keys?.[top];
  return rest.length > 0 && container?.flags?.presence !== 'required' ? nullable(schema) : schema;
}

function memberAt(d: Description, path: string[]): Description | undefined {
  let node: Description | undefined = d;
  for (const key of path) node = node?.keys?.[key];
  return node;
}

function arraySchema(d: Description, ctx: Context): JsonObject {
  const out: JsonObject = { type: 'array' };
  const items = (d.items ?? []).map((item) => convert(item, ctx));
  if (items.length === 1 && items[0]) out.items = items[0];
  else if (items.length > 1) out.items = { anyOf: items };
  Object.assign(out, sized(d, 'minItems', 'maxItems'));
  // Whole-value uniqueness only: unique by a key or a comparator is not JSON Schema's uniqueItems.
  if (d.rules?.some((r) => r.name === 'unique' && r.args === undefined)) out.uniqueItems = true;
  if (!d.flags?.single || items.length !== 1) return out;
  return { anyOf: [items[0] as JsonObject, out] };
}

/**
 * `valid()` values become an enum; `allow()`ed extras are added: `null` to the type, others (an
 * allowed `''` that the rules would refuse) as an alternative.
 */
function withAllowed(d: Description, base: JsonObject): JsonObject {
  const allowed = (d.allow ?? []).filter(isScalar);
  if (d.flags?.only) return onlyValues(base, allowed);
  const extras = allowed.filter((v) => v !== null && !accepts(base, v));
  const out = allowed.includes(null) ? nullable(base) : base;
  return extras.length === 0 ? out : { anyOf: [out, { enum: extras }] };
}

/** Whether a plain string schema (type, length, pattern) already accepts `value`. */
function accepts(schema: JsonObject, value: Scalar): boolean {
  if (typeof value !== 'string' || schema.type !== 'string' || schema.format !== undefined) return false;
  const n = [...value].length;
  if (typeof schema.minLength === 'number' && n < schema.minLength) return false;
  if (typeof schema.maxLength === 'number' && n > schema.maxLength) return false;
  return typeof schema.pattern !== 'string' || new RegExp(schema.pattern, 'u').test(value);
}

function onlyValues(base: JsonObject, values: Scalar[]): JsonObject {
  const types = [...new Set(values.map(jsonType))];
  if (types.length === 0) return { ...base, not: {} };
  return { type: types.length === 1 ? (types[0] as string) : types, enum: values };
}

function nullable(schema: JsonObject): JsonObject {
  if (schema.$ref !== undefined || schema.type === undefined) return { anyOf: [schema, { type: 'null' }] };
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes('null') ? schema : { ...schema, type: [...types, 'null'] };
}
