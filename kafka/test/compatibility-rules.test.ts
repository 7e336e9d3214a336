import { expect } from 'chai';
import { compatibilityProblems, type CatalogueSnapshot } from '../compatibility.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const defs = {
  'defs/common.json': {
    $defs: {
      envelope: {
        type: 'object',
        required: ['id', 'type', 'data'],
        properties: { id: { $ref: '#/$defs/id' }, type: { type: 'string' }, data: { type: 'object' } },
      },
      id: { type: 'string', minLength: 1 },
      kind: { type: 'string', enum: ['QAS', 'DOCX_FAST'], 'x-extensible-enum': true },
    },
  },
};

function base(): CatalogueSnapshot & { schemas: Record<string, Json>; defs: Record<string, Json> } {
  return {
    topics: [{ name: 'thing.v1', key: 'thingId', events: ['thing.changed.v1'] }],
    defs: structuredClone(defs),
    schemas: {
      'thing.changed.v1': {
        type: 'object',
        $ref: 'defs/common.json#/$defs/envelope',
        properties: {
          type: { const: 'thing.changed.v1' },
          data: {
            type: 'object',
            additionalProperties: false,
            required: ['thingId', 'status'],
            properties: {
              thingId: { $ref: 'defs/common.json#/$defs/id' },
              status: { type: 'string', enum: ['NEW', 'DONE'] },
              kind: { $ref: 'defs/common.json#/$defs/kind' },
              size: { type: 'integer' },
              owner: { oneOf: [{ type: 'object', properties: { id: { type: 'string' } } }, { type: 'null' }] },
              tags: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' } } } },
            },
          },
        },
        unevaluatedProperties: false,
      },
    },
  };
}

const data = (c: ReturnType<typeof base>) => c.schemas['thing.changed.v1']!.properties.data;
const problemsAfter = (change: (c: ReturnType<typeof base>) => void) => {
  const next = base();
  change(next);
  return compatibilityProblems(base(), next);
};

describe('compatibilityProblems (pure)', () => {
  it('finds nothing between a catalogue and itself', () => {
    expect(compatibilityProblems(base(), base())).to.deep.equal([]);
  });

  describe('allows additive changes', () => {
    it('a new optional property, at the top of data and inside a nested object and an array item', () => {
      expect(
        problemsAfter((c) => {
          data(c).properties.colour = { type: 'string' };
          data(c).properties.owner.oneOf[0].properties.name = { type: 'string' };
          data(c).properties.tags.items.properties.weight = { type: 'number' };
        }),
      ).to.deep.equal([]);
    });

    it('opening a closed object, and $ref beside properties respelled as allOf: [$ref] with titles', () => {
      expect(
        problemsAfter((c) => {
          const s = c.schemas['thing.changed.v1']!;
          delete s.unevaluatedProperties;
          delete data(c).additionalProperties;
          s.allOf = [{ $ref: s.$ref }];
          delete s.$ref;
          data(c).title = 'ThingChangedData';
        }),
      ).to.deep.equal([]);
    });

    it('a new value of an enum marked x-extensible-enum, a new topic and a new event type on it', () => {
      expect(
        problemsAfter((c) => {
          c.defs['defs/common.json']!.$defs.kind.enum.push('PDF');
          c.topics = [...c.topics, { name: 'other.v1', key: 'otherId', events: ['other.happened.v1'] }];
          c.schemas['other.happened.v1'] = { type: 'object' };
        }),
      ).to.deep.equal([]);
    });
  });

  describe('refuses each kind of break', () => {
    const cases: Array<[string, (c: ReturnType<typeof base>) => void, string]> = [
      ['a removed property', (c) => delete data(c).properties.size, 'thing.changed.v1: .data.size: removed property'],
      [
        'a removed property inside an array item',
        (c) => delete data(c).properties.tags.items.properties.label,
        'thing.changed.v1: .data.tags[].label: removed property',
      ],
      [
        'a changed type',
        (c) => (data(c).properties.size = { type: 'string' }),
        'thing.changed.v1: .data.size: changed type integer -> string',
      ],
      [
        'a property made nullable (a type change for strict readers)',
        (c) => (data(c).properties.size.type = ['integer', 'null']),
        'thing.changed.v1: .data.size: changed type integer -> integer|null',
      ],
      [
        'a changed type inside a shared definition',
        (c) => (c.defs['defs/common.json']!.$defs.id = { type: 'integer' }),
        'thing.changed.v1: .id: changed type string -> integer',
      ],
      [
        'a changed const',
        (c) => (c.schemas['thing.changed.v1']!.properties.type = { const: 'thing.changed.v2' }),
        'thing.changed.v1: .type: changed const "thing.changed.v1" -> "thing.changed.v2"',
      ],
      [
        'a newly required property',
        (c) => data(c).required.push('size'),
        'thing.changed.v1: .data.size: newly required',
      ],
      [
        'a new required property',
        (c) => {
          data(c).properties.colour = { type: 'string' };
          data(c).required.push('colour');
        },
        'thing.changed.v1: .data.colour: newly required',
      ],
      [
        'a narrowed enum',
        (c) => (data(c).properties.status.enum = ['NEW']),
        'thing.changed.v1: .data.status: narrowed enum (removed ["DONE"])',
      ],
      [
        'a new value of an enum not marked x-extensible-enum',
        (c) => data(c).properties.status.enum.push('LOST'),
        'thing.changed.v1: .data.status: added ["LOST"] to an enum not marked x-extensible-enum',
      ],
      [
        'a free string narrowed to an enum',
        (c) => (data(c).properties.thingId = { type: 'string', enum: ['a', 'b'] }),
        'thing.changed.v1: .data.thingId: narrowed enum (now only ["a","b"])',
      ],
      [
        'an object closed to unknown members',
        (c) => (data(c).properties.owner.oneOf[0].additionalProperties = false),
        'thing.changed.v1: .data.owner<oneOf[0]>: closed to unknown members',
      ],
      [
        'a changed number of alternatives',
        (c) => data(c).properties.owner.oneOf.pop(),
        'thing.changed.v1: .data.owner: changed type null|object -> object',
      ],
      [
        'a removed event type',
        (c) => delete c.schemas['thing.changed.v1'],
        'event type thing.changed.v1: schema removed',
      ],
      [
        'an event type a topic no longer carries',
        (c) => (c.topics = [{ name: 'thing.v1', key: 'thingId', events: [] }]),
        'topic thing.v1: no longer carries thing.changed.v1',
      ],
      [
        'a removed topic',
        (c) => (c.topics = []),
        'topic thing.v1: removed (a topic is retired only with a new topic version)',
      ],
      [
        'a changed key',
        (c) => (c.topics = [{ name: 'thing.v1', key: 'ownerId', events: ['thing.changed.v1'] }]),
        'topic thing.v1: key changed thingId -> ownerId',
      ],
    ];
    for (const [name, change, expected] of cases) {
      it(`${name}: ${expected}`, () => {
        expect(problemsAfter(change)).to.include(expected);
      });
    }
  });
});
