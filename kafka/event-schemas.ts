// The event catalogue's validator: every kafka/schemas/<type>.json (JSON Schema 2020-12) compiled
// once, plus the catalogue's rules a schema cannot state (the type belongs to the topic, the
// subject is the key). Services' tests call expectValidEvent(event), the producer's promise, which
// closes every object of the schemas (strictVariant); a consumer calls validateEvent(event, topic),
// which applies the published schemas as they are: open, since consumers ignore members they do
// not know (docs/events.md).
import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { TOPIC_CATALOGUE, topicOfEvent, type TopicSpec } from './topics.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const schemaDir = new URL('./schemas/', import.meta.url);
const SCHEMA_SUFFIX = '.json';

function readJson(url: URL): Record<string, unknown> {
  return JSON.parse(readFileSync(url, 'utf8')) as Record<string, unknown>;
}

/** Event types with a schema file: kafka/schemas/<type>.json (shared parts live in schemas/defs/). */
export function schemaTypes(): string[] {
  return readdirSync(schemaDir)
    .filter((f) => f.endsWith(SCHEMA_SUFFIX))
    .map((f) => f.slice(0, -SCHEMA_SUFFIX.length))
    .sort();
}

/** Relative paths of the shared definition files (schemas/defs/*.json). */
export function definitionFiles(): string[] {
  return readdirSync(new URL('defs/', schemaDir))
    .filter((f) => f.endsWith(SCHEMA_SUFFIX))
    .map((f) => `defs/${f}`);
}

/** Marks an enum whose consumers must tolerate values they do not know (docs/events.md). */
export const EXTENSIBLE_ENUM = 'x-extensible-enum';

// Conditions only select; closing them would change what they select.
const CONDITION_KEYS = new Set(['if', 'then', 'else', 'not']);
// Keywords whose value maps names to schemas (the map itself is not a schema).
const SCHEMA_MAPS = new Set(['properties', '$defs', 'patternProperties', 'dependentSchemas']);

function closeObject(node: Record<string, unknown>): Record<string, unknown> {
  if (!('properties' in node)) return node;
  // Properties a sibling allOf/$ref evaluates stay allowed through unevaluatedProperties.
  const key = 'allOf' in node || '$ref' in node ? 'unevaluatedProperties' : 'additionalProperties';
  return { ...node, [key]: false };
}

function mapValues(map: unknown, fn: (schema: unknown) => unknown): unknown {
  if (typeof map !== 'object' || map === null) return map;
  return Object.fromEntries(Object.entries(map).map(([name, schema]) => [name, fn(schema)]));
}

/**
 * The producer-side variant of a published schema: every object schema that lists its properties
 * refuses any other member, so a producer cannot leak a field the catalogue does not name.
 */
export function strictVariant(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strictVariant);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (CONDITION_KEYS.has(k)) out[k] = v;
    else out[k] = SCHEMA_MAPS.has(k) ? mapValues(v, strictVariant) : strictVariant(v);
  }
  return closeObject(out);
}

type Validators = Map<string, ValidateFunction>;
const compiled: { strict?: Validators; open?: Validators } = {};

function compileAll(transform: (schema: unknown) => unknown): Validators {
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addKeyword({ keyword: EXTENSIBLE_ENUM, schemaType: 'boolean' });
  for (const file of definitionFiles()) ajv.addSchema(transform(readJson(new URL(file, schemaDir))) as object);
  const map: Validators = new Map();
  for (const type of schemaTypes())
    map.set(type, ajv.compile(transform(readJson(new URL(`${type}${SCHEMA_SUFFIX}`, schemaDir))) as object));
  return map;
}

function validators(strict: boolean): Validators {
  if (strict) return (compiled.strict ??= compileAll(strictVariant));
  return (compiled.open ??= compileAll((s) => s));
}

export interface EventValidation {
  valid: boolean;
  type?: string;
  errors: string[];
}

function topicRule(type: string, topic: string | undefined): string[] {
  if (topic === undefined) return [];
  const spec = TOPIC_CATALOGUE.find((t) => t.name === topic);
  if (!spec) return [`topic ${topic} is not in kafka/topics.json`];
  return spec.events.includes(type) ? [] : [`topic ${topic} does not carry ${type}`];
}

function keyRule(event: Record<string, unknown>, spec: TopicSpec | undefined): string[] {
  const data = event.data as Record<string, unknown> | undefined;
  if (!spec || typeof data !== 'object' || data === null) return [];
  return data[spec.key] === event.subject ? [] : [`subject must equal data.${spec.key} (the Kafka key)`];
}

export interface ValidateOptions {
  /**
   * `consumer` (default): the published, open schemas, as a consumer applies them (members it
   * does not know pass). `producer`: the strict variant, refusing members the catalogue does not
   * name (what producers' tests hold their events to: expectValidEvent).
   */
  as?: 'producer' | 'consumer';
}

/**
 * Validates a platform event against the schema of its type and the catalogue: when `topic` is
 * given, the topic must carry that type (a dead-letter topic carries its origin's types).
 */
export function validateEvent(event: unknown, topic?: string, opts: ValidateOptions = {}): EventValidation {
  if (typeof event !== 'object' || event === null || Array.isArray(event))
    return { valid: false, errors: ['an event is a JSON object'] };
  const e = event as Record<string, unknown>;
  const type = typeof e.type === 'string' ? e.type : undefined;
  if (!type) return { valid: false, errors: ['type is required'] };
  const validate = validators(opts.as === 'producer').get(type);
  if (!validate) return { valid: false, type, errors: [`no schema for event type ${type} in kafka/schemas`] };
  const errors = validate(event)
    ? []
    : (validate.errors ?? []).map((err) => `${err.instancePath || '/'} ${err.message ?? 'is invalid'}`);
  errors.push(...topicRule(type, topic), ...keyRule(e, topicOfEvent(type)));
  return { valid: errors.length === 0, type, errors };
}

/** Throws, naming every violation, unless the event is valid as a producer must emit it; for services' tests. */
export function expectValidEvent(event: unknown, topic?: string): void {
  const result = validateEvent(event, topic, { as: 'producer' });
  if (!result.valid)
    throw new Error(
      `invalid ${result.type ?? 'event'}${topic ? ` on ${topic}` : ''}:\n  ${result.errors.join('\n  ')}`,
    );
}
