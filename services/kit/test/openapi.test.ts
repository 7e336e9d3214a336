import { expect } from 'chai';
import Joi from 'joi';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import {
  dateTimeString,
  documentedAs,
  jsonSchemaOf,
  named,
  openApiDocument,
  routes,
  tolerant,
  trimmedString,
  type JsonObject,
} from '../src/index.js';
import type { SchemaComponents } from '../src/openapi/json-schema.js';

// The document is generated from the joi schemas that validate: for each schema, values joi
// accepts must match the generated JSON Schema and values joi refuses must not.
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

function agree(schema: Joi.Schema, values: unknown[]): void {
  const check = ajv.compile(jsonSchemaOf(schema));
  for (const value of values) {
    const joiAccepts = schema.validate(value).error === undefined;
    expect(check(value), `${JSON.stringify(value)}: joi ${joiAccepts ? 'accepts' : 'refuses'}`).to.equal(joiAccepts);
  }
}

describe('jsonSchemaOf: the document form of a joi schema', () => {
  it('strings: length, pattern, format, enum, allowed null and empty', () => {
    agree(
      Joi.string()
        .min(2)
        .max(4)
        .pattern(/^[a-z]+$/),
      ['ab', 'abcd', 'a', 'abcde', 'AB', 3, null],
    );
    agree(Joi.string().valid('A', 'B').allow(null), ['A', 'B', null, 'C', '']);
    agree(Joi.string().max(3).pattern(/^\d+$/).allow('', null), ['', null, '12', 'ab', '1234']);
    agree(Joi.string().email({ tlds: { allow: false } }), ['a@b.co', 'nope']);
  });

  it('numbers: integer, bounds, exclusive bounds', () => {
    agree(Joi.number().integer().min(1).max(12), [1, 12, 0, 13, 1.5]);
    agree(Joi.number().greater(0).less(1), [0.5, 0, 1]);
  });

  it('objects: required members, unknown members refused, kept or dropped, min members, peers', () => {
    const strict = Joi.object({ a: Joi.string().required(), b: Joi.number() });
    agree(strict, [{ a: 'x' }, { a: 'x', b: 1 }, {}, { a: 'x', c: 1 }, { b: 1 }]);
    agree(strict.unknown(true), [{ a: 'x', c: 1 }]);
    agree(Joi.object({ a: Joi.string(), b: Joi.string() }).min(1), [{}, { a: 'x' }]);
    agree(Joi.object({ a: Joi.string(), b: Joi.string() }).xor('a', 'b'), [{}, { a: 'x' }, { a: 'x', b: 'y' }]);
    agree(Joi.object({ a: Joi.string(), b: Joi.string() }).oxor('a', 'b'), [{}, { a: 'x' }, { a: 'x', b: 'y' }]);
    agree(Joi.object({ a: Joi.string(), b: Joi.string() }).or('a', 'b'), [{}, { b: 'y' }, { a: 'x', b: 'y' }]);
    expect(jsonSchemaOf(tolerant(Joi.object({ a: Joi.object({ b: Joi.string() }) })))).to.deep.include({
      additionalProperties: true,
    });
    // A forbidden member of an open object is refused by name (a closed object refuses it anyway).
    const open = Joi.object({ a: Joi.string(), data: Joi.forbidden() }).unknown(true);
    agree(open, [{ a: 'x' }, { a: 'x', c: 1 }, { a: 'x', data: 'y' }]);
    expect(jsonSchemaOf(Joi.object({ data: Joi.forbidden() }))).to.not.have.property('properties');
  });

  it('arrays: items, bounds, uniqueness, single values', () => {
    agree(Joi.array().items(Joi.string()).min(1).max(2).unique(), [['a'], [], ['a', 'b', 'c'], ['a', 'a'], [1]]);
    agree(Joi.array().items(Joi.string()).single(), ['a', ['a'], 1]);
    // Unique by a key (or a comparator) is not whole-value uniqueness: the document does not claim it.
    expect(
      jsonSchemaOf(
        Joi.array()
          .items(Joi.object({ id: Joi.string() }))
          .unique('id'),
      ),
    ).to.not.have.property('uniqueItems');
  });

  it('the kit helpers carry their document form: trimmed strings and RFC 3339 date-times', () => {
    agree(trimmedString(2, 5), ['ab', ' ab ', 'a', '   ', 'abcdef', ' a b ']);
    agree(dateTimeString().allow(null), ['2026-01-02T03:04:05Z', null, '2026-01-02', 'x']);
  });

  it('named schemas become components; a when() needs documentedAs()', () => {
    const components: SchemaComponents = new Map();
    const doc = jsonSchemaOf(Joi.object({ a: named('A', Joi.string().max(3)) }), components);
    expect(doc.properties).to.deep.equal({ a: { $ref: '#/components/schemas/A' } });
    expect(components.get('A')).to.deep.equal({ type: 'string', maxLength: 3 });
    const conditional = Joi.object({ k: Joi.string(), v: Joi.string().when('k', { is: 'x', then: Joi.required() }) });
    expect(() => jsonSchemaOf(conditional)).to.throw(/documentedAs/);
    const stated = Joi.object({
      v: documentedAs(Joi.string().when('k', { is: 'x', then: Joi.required() }), { type: 'string' }),
    });
    expect(jsonSchemaOf(stated).properties).to.deep.equal({ v: { type: 'string' } });
  });

  it('a tolerant schema documents its spellings as members', () => {
    const schema = tolerant(Joi.object({ id: Joi.string().max(5) }), [{ path: 'id', alias: 'userId' }]);
    const props = jsonSchemaOf(schema).properties as JsonObject;
    expect(props.userId).to.deep.include({ type: 'string', maxLength: 5 });
  });
});

describe('openApiDocument', () => {
  const route = routes<null>();
  const declared = [
    route({
      method: 'patch',
      path: '/v1/things/:id',
      params: Joi.object<{ id: string }, true>({ id: Joi.string().max(8).required().description('The id') }),
      query: Joi.object<{ dry?: boolean }, true>({ dry: Joi.boolean() }),
      body: named('ThingUpdate', Joi.object<{ name: string }, true>({ name: Joi.string().required() })),
      doc: { summary: 'Change a thing', operationId: 'patchThing', responses: { 200: { description: 'OK' } } },
      handle: () => undefined,
    }),
  ];
  const doc = openApiDocument(
    { kit: { service: 'things' }, info: { title: 't', version: '1' }, components: {} },
    declared,
  );

  it('states parameters and the body from the schemas, the rest from the declaration', () => {
    const paths = doc.paths as Record<string, Record<string, JsonObject>>;
    const op = paths['/v1/things/{id}']?.patch as JsonObject;
    expect(op.parameters).to.deep.equal([
      { name: 'id', in: 'path', required: true, schema: { type: 'string', maxLength: 8 }, description: 'The id' },
      { name: 'dry', in: 'query', required: false, schema: { type: 'boolean' } },
    ]);
    expect(op.requestBody).to.deep.equal({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingUpdate' } } },
    });
    expect(Object.keys(paths)).to.include.members(['/healthz', '/readyz', '/v1', '/v1/openapi.json', '/metrics']);
    const components = doc.components as Record<string, JsonObject>;
    expect(Object.keys(components.schemas ?? {})).to.deep.equal(['Error', 'ThingUpdate']);
  });
});
