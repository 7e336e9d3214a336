// kafka/asyncapi.yaml through the AsyncAPI parser (the library the AsyncAPI CLI and the code
// generators build on): no error diagnostics, and every schema a generator turns into a model
// carries a name, so generated models are not AnonymousSchema_N.
import { fileURLToPath } from 'node:url';
import { Parser, fromFile, type AsyncAPIDocumentInterface, type Diagnostic } from '@asyncapi/parser';
import { expect } from 'chai';

const ERROR = 0; // DiagnosticSeverity.Error (spectral's numbering: 0 error, 1 warning, 2 info, 3 hint)

describe('kafka/asyncapi.yaml through @asyncapi/parser', function () {
  this.timeout(60000);
  let document: AsyncAPIDocumentInterface | undefined;
  let diagnostics: Diagnostic[];

  before(async () => {
    const path = fileURLToPath(new URL('../asyncapi.yaml', import.meta.url));
    ({ document, diagnostics } = await fromFile(new Parser(), path).parse());
  });

  it('parses with no error diagnostics (external schema files resolved)', () => {
    const errors = diagnostics.filter((d) => d.severity === ERROR).map((d) => `${d.path.join('.')}: ${d.message}`);
    expect(errors).to.deep.equal([]);
    expect(document, 'the parsed document').to.not.equal(undefined);
  });

  it('every object schema with properties and every enum a generator would model has a title', () => {
    // if/then/else only select; generators do not model them.
    const conditions = new Set(
      document!
        .allSchemas()
        .all()
        .flatMap((s) => [s.if(), s.then(), s.else()])
        .filter((c) => c !== undefined)
        .map((c) => c.json()),
    );
    const unnamed = document!
      .allSchemas()
      .all()
      .filter((s) => {
        const json = s.json() as Record<string, unknown>;
        if (conditions.has(json)) return false;
        const modelled = json.properties !== undefined || (Array.isArray(json.enum) && json.enum.length > 1);
        return modelled && !s.title();
      })
      .map((s) => JSON.stringify(s.json()).slice(0, 160));
    expect(unnamed).to.deep.equal([]);
    expect(document!.allSchemas().all().length).to.be.greaterThan(100);
  });

  it("every message's payload is named after its components.schemas entry and its data after it + Data", () => {
    const names = Object.keys((document!.json() as { components: { schemas: object } }).components.schemas);
    expect(names).to.include('EventHeaders');
    for (const message of document!.allMessages().all()) {
      const payload = message.payload()!;
      expect(names, message.name()).to.include(payload.title());
      expect(payload.properties()?.data?.title(), message.name()).to.equal(`${payload.title()}Data`);
      expect(message.headers()?.title(), message.name()).to.equal('EventHeaders');
    }
  });

  it('every receive operation names its consumer group in its Kafka binding', () => {
    const receives = document!
      .operations()
      .all()
      .filter((o) => o.action() === 'receive');
    expect(receives.length).to.be.greaterThan(0);
    for (const op of receives) {
      const kafka = op.bindings().get('kafka')?.value() as { groupId?: { enum?: string[] } } | undefined;
      expect(kafka?.groupId?.enum, op.id()).to.have.length(1);
    }
  });
});
