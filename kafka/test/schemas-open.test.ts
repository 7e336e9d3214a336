import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { definitionFiles, EXTENSIBLE_ENUM, schemaTypes, validateEvent } from '../event-schemas.js';
import { clone, VALID_EVENTS } from './examples.js';

type Json = Record<string, unknown>;

const schemaUrl = (file: string) => new URL(`../schemas/${file}`, import.meta.url);
const files = () => [...schemaTypes().map((t) => `${t}.json`), ...definitionFiles()];
const readJson = (file: string) => JSON.parse(readFileSync(schemaUrl(file), 'utf8')) as Json;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const CONDITIONS = new Set(['if', 'then', 'else', 'not']);

/** Every subschema a generator turns into a model (objects that list properties, enums of 2+ values). */
function modelSchemas(node: unknown, at: string, out: Array<{ at: string; schema: Json }> = []) {
  if (Array.isArray(node)) node.forEach((n, i) => modelSchemas(n, `${at}/${i}`, out));
  if (!isObject(node)) return out;
  const isEnum = Array.isArray(node.enum) && node.enum.length > 1;
  if (isObject(node.properties) || isEnum) out.push({ at, schema: node });
  for (const [k, v] of Object.entries(node)) if (!CONDITIONS.has(k) && k !== 'enum') modelSchemas(v, `${at}/${k}`, out);
  return out;
}

/** Paths of every object inside an event instance (free-form contentJson excluded). */
function objectPaths(value: unknown, path: string[] = []): string[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => objectPaths(v, [...path, String(i)]));
  if (!isObject(value) || path.includes('contentJson')) return [];
  return [path, ...Object.entries(value).flatMap(([k, v]) => objectPaths(v, [...path, k]))];
}

function withUnknownMember(event: unknown, path: string[]): unknown {
  const copy = clone(event as Json);
  let at: unknown = copy;
  for (const p of path) at = (at as Json)[p];
  (at as Json).addedInALaterRelease = { any: 'shape' };
  return copy;
}

describe('published event schemas: named and open', () => {
  it('every object and enum schema has a PascalCase title, unique across the catalogue', () => {
    const titles = new Map<string, string>();
    for (const file of files()) {
      for (const { at, schema } of modelSchemas(readJson(file), file)) {
        expect(schema.title, `${at} needs a title (else generators emit AnonymousSchema_N)`).to.match(
          /^[A-Z][A-Za-z0-9]*$/,
        );
        const title = schema.title as string;
        expect(titles.get(title), `title ${title} at ${at}`).to.equal(undefined);
        titles.set(title, at);
      }
    }
    expect(titles.size).to.be.greaterThan(40);
  });

  it('no schema closes an object: consumers must be able to read members added later', () => {
    for (const file of files()) {
      const text = readFileSync(schemaUrl(file), 'utf8');
      expect(text, file).to.not.match(/"(additional|unevaluated)Properties":\s*false/);
    }
  });

  it(`${EXTENSIBLE_ENUM} appears only on enums`, () => {
    for (const file of files())
      for (const { schema } of modelSchemas(readJson(file), file))
        if (EXTENSIBLE_ENUM in schema) expect(schema.enum, file).to.be.an('array');
  });

  for (const type of Object.keys(VALID_EVENTS).sort()) {
    it(`${type}: an unknown member at any object passes as a consumer reads it and fails the producer check`, () => {
      const event = VALID_EVENTS[type]!;
      const paths = objectPaths(event);
      expect(paths.length).to.be.greaterThan(1);
      for (const path of paths) {
        const changed = withUnknownMember(event, path);
        const where = `/${path.join('/')}`;
        expect(validateEvent(changed).errors, `consumer (default) at ${where}`).to.deep.equal([]);
        expect(validateEvent(changed, undefined, { as: 'producer' }).valid, `producer check at ${where}`).to.equal(
          false,
        );
      }
    });
  }

  it('a consumer still refuses what breaks the schema (a missing required member)', () => {
    const e = clone(VALID_EVENTS['attempt.graded.v1']!) as unknown as Json;
    delete (e.data as Json).attemptId;
    expect(validateEvent(e, undefined, { as: 'consumer' }).valid).to.equal(false);
  });
});
