import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { documentFile, GENERATED_DOCUMENTS, renderDocument } from '../openapi.js';
import { COMMANDS, SERVICES } from '../registry.js';

// Each generated openapi.json is a build output checked in for review: regenerating it from the
// route declarations must change nothing (run `npx tsx services/openapi.ts` after changing a route).
describe('generated OpenAPI documents', () => {
  it('every service and command the registry says serves a document has a generated one', () => {
    const serving = [...SERVICES, ...COMMANDS].filter((entry) => entry.openapi).map((entry) => entry.name);
    expect([...serving].sort()).to.deep.equal(Object.keys(GENERATED_DOCUMENTS).sort());
  });

  for (const service of Object.keys(GENERATED_DOCUMENTS)) {
    it(`${service}: openapi.json is what its route declarations generate`, async () => {
      const text = await renderDocument(service);
      expect(readFileSync(documentFile(service), 'utf8')).to.equal(text);
    });
  }
});
