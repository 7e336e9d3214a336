import { expect } from 'chai';
import Joi from 'joi';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import {
  dateTimeString,
  documentedAs,
  jsonSchemaOf,
  named,
  okResponse,
  openApiDocument,
  pagingKeys,
  routes,
  serviceDocumentBase,
  tolerant,
  trimmedString,
  type JsonObject,
} from '../src/http/index.js';
import type { SchemaComponents } from '../src/http/openapi/json-schema.js';

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

  it('objects with key patterns, refused or (explicit unknown(false)) kept refused in a tolerant schema', () => {
    const scalars = Joi.object()
      .max(2)
      .pattern(/^[a-z]{1,3}$/, [Joi.string().max(2), Joi.valid(null)])
      .unknown(false);
    agree(scalars, [
      {},
      { ab: 'x' },
      { ab: null },
      { abcd: 'x' },
      { ab: 'xyz' },
      { ab: 1 },
      { a: 'x', b: 'y', c: 'z' },
    ]);
    agree(tolerant(Joi.object({ m: scalars })), [{ m: { ab: 'x' } }, { m: { abcd: 'x' } }, { m: {}, other: 1 }]);
    agree(Joi.object().pattern(/^a$/, Joi.number()), [{ a: 1 }, { b: 1 }]);
    agree(Joi.object().unknown(false), [{ b: 1 }]);
  });

  it('objects with pattern() members: their names and values', () => {
    agree(
      Joi.object()
        .pattern(/^[a-z]{1,3}$/, Joi.boolean().required())
        .max(2),
      [{}, { ab: true }, { ab: true, c: false }, { ab: 'x' }, { ABC: true }, { a: true, b: true, c: true }],
    );
    agree(Joi.object({ id: Joi.string() }).pattern(/^x_/, Joi.number()), [{ id: 'a', x_1: 2 }, { x_1: 'a' }, { y: 1 }]);
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
    const described = tolerant(Joi.object({ id: Joi.string(), userId: Joi.string().description('Either.') }), [
      { path: 'id', alias: 'userId' },
    ]);
    expect((jsonSchemaOf(described).properties as JsonObject).userId).to.deep.include({ description: 'Either.' });
  });

  it("an object's deep default (its members' defaults) states no default", () => {
    const schema = Joi.object({ a: Joi.boolean().default(false) }).default();
    expect(jsonSchemaOf(schema)).to.not.have.property('default');
  });

  it('a required member a nested alias can give becomes one of the two', () => {
    const body = tolerant(Joi.object({ studentId: Joi.string().required(), n: Joi.number().required() }), [
      { path: 'studentId', alias: 'student.id' },
    ]);
    const schema = jsonSchemaOf(body);
    expect(schema.required).to.deep.equal(['n']);
    expect(schema.anyOf).to.deep.equal([{ required: ['studentId'] }, { required: ['student'] }]);
  });

  it('a flat alias relaxes what it can give; a nested alias is an object holding the member', () => {
    const body = tolerant(
      Joi.object({
        student: Joi.object({ id: Joi.string().required() }).required(),
        exam: Joi.object({ id: Joi.string().required(), title: Joi.string().required() }).required(),
        classroom: Joi.object({ id: Joi.string().required() }).allow(null),
        score: Joi.number().required(),
        attemptId: Joi.string().allow(null),
      }),
      [
        { path: 'student.id', alias: 'studentId' },
        { path: 'exam.id', alias: 'examId' },
        { path: 'classroom.id', alias: 'classroomId' },
        { path: 'score', alias: 'totalScore' },
        { path: 'attemptId', alias: 'attempt.id' },
      ],
    );
    const schema = jsonSchemaOf(body);
    const props = schema.properties as Record<string, JsonObject>;
    expect(schema.required).to.deep.equal(['exam']);
    expect(schema.allOf).to.deep.equal([
      { anyOf: [{ required: ['student'] }, { required: ['studentId'] }] },
      { anyOf: [{ required: ['score'] }, { required: ['totalScore'] }] },
    ]);
    expect(props.student?.required).to.equal(undefined);
    expect(props.exam?.required).to.deep.equal(['title']);
    // A null classroomId alone creates no classroom: accepted.
    expect(props.classroomId?.type).to.deep.equal(['string', 'null']);
    expect(props.attempt).to.deep.include({
      type: 'object',
      required: ['id'],
      properties: { id: { type: ['string', 'null'] } },
    });
  });
});

describe('paging keys in a typed query', () => {
  it('type page and limit as the clamped numbers they become, and document their clamp', () => {
    const query = Joi.object<{ page: number; limit: number }, true>(pagingKeys({ defaultLimit: 50, maxLimit: 200 }));
    const props = jsonSchemaOf(query).properties as Record<string, JsonObject>;
    expect(props.page).to.deep.equal({
      default: 1,
      description: 'Default 1; clamped to 1..1,000,000; a non-number is the default (never a 400).',
    });
    expect(props.limit?.description).to.equal(
      'Default 50; clamped to 1..200; a non-number is the default (never a 400).',
    );
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
    route({
      method: 'post',
      path: '/v1/things/upload',
      body: Joi.object<{ note?: string }, true>({ note: Joi.string() }),
      doc: {
        summary: 'Upload a thing',
        bodyContentType: 'multipart/form-data',
        bodySchema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } },
        bodyEncoding: { file: { contentType: 'application/octet-stream' } },
        responses: { 202: okResponse('Queued', { type: 'string' }, 'Thing queued') },
      },
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

  it('a body schema with a default is an optional body', () => {
    const optional = route({
      method: 'post',
      path: '/v1/things/:id/close',
      body: Joi.object<{ why: string }, true>({ why: Joi.string().default('none') }).default({}),
      doc: { summary: 'Close a thing', responses: { 200: { description: 'OK' } } },
      handle: () => undefined,
    });
    const base = { kit: { service: 'things' }, info: { title: 't', version: '1' }, components: {} };
    const paths = openApiDocument(base, [optional]).paths as Record<string, Record<string, JsonObject>>;
    expect(paths['/v1/things/{id}/close']?.post?.requestBody).to.deep.include({ required: false });
  });

  it('a document several processes serve names each in GET /v1', () => {
    const base = { kit: { service: ['a', 'b'] }, info: { title: 't', version: '1' }, components: {} };
    const paths = openApiDocument(base, []).paths as Record<string, Record<string, JsonObject>>;
    expect(JSON.stringify(paths['/v1'])).to.include('"service":{"type":"string","enum":["a","b"]}');
  });

  it("a multipart body states its form and its parts' encoding; an envelope may carry its own message", () => {
    const paths = doc.paths as Record<string, Record<string, JsonObject>>;
    const op = paths['/v1/things/upload']?.post as JsonObject;
    expect(op.requestBody).to.deep.equal({
      required: true,
      content: {
        'multipart/form-data': {
          schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } },
          encoding: { file: { contentType: 'application/octet-stream' } },
        },
      },
    });
    const queued = (op.responses as Record<string, JsonObject>)[202] as JsonObject;
    expect(JSON.stringify(queued)).to.include('{"message":{"const":"Thing queued"}}'.slice(1, -1));
  });
});

describe("serviceDocumentBase: the document's prose from document.json", () => {
  let dir: string;
  const from = () => pathToFileURL(join(dir, 'src', 'openapi.ts')).href;
  const write = (name: string, value: unknown) => writeFileSync(join(dir, name), JSON.stringify(value));
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kit-prose-'));
    mkdirSync(join(dir, 'src'));
    write('decisions.json', ['One choice.']);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('builds the head, header parameters and error responses from the prose, after the responses given in code', () => {
    write('document.json', {
      description: 'A thing service.',
      headers: { UserHeader: { name: 'X-User-Id', description: 'The actor.', required: true } },
      errors: { NotFound: 'THING_NOT_FOUND.' },
    });
    const base = serviceDocumentBase(
      { service: 'thing', version: '1.0.0', port: 4999, from: from() },
      { responses: { Shared: { description: 'first' } } },
    );
    expect(base.info).to.deep.equal({
      title: 'edu-platform thing service',
      version: '1.0.0',
      description: 'A thing service.',
    });
    expect(base['x-decisions']).to.deep.equal(['One choice.']);
    const { parameters, responses } = base.components as { parameters: JsonObject; responses: JsonObject };
    expect(parameters.UserHeader).to.include({
      name: 'X-User-Id',
      in: 'header',
      required: true,
      description: 'The actor.',
    });
    expect(Object.keys(responses)).to.deep.equal(['Shared', 'NotFound']);
    expect(responses.NotFound).to.have.property('description', 'THING_NOT_FOUND.');
  });

  it('refuses a malformed document.json when the document is built, naming the file', () => {
    write('document.json', { description: 'x', headers: { H: { name: 'X-H' } }, errors: {} });
    expect(() => serviceDocumentBase({ service: 'thing', version: '1', from: from() })).to.throw(
      /document\.json.*description/,
    );
    write('document.json', { headers: {}, errors: {} });
    expect(() => serviceDocumentBase({ service: 'thing', version: '1', from: from() })).to.throw(/document\.json/);
  });
});
