import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { documentFile, GENERATED_DOCUMENTS, renderDocument } from '../openapi.js';

// Each generated openapi.json is a build output checked in for review: regenerating it from the
// route declarations must change nothing (run `npx tsx services/openapi.ts` after changing a route).
describe('generated OpenAPI documents', () => {
  for (const service of Object.keys(GENERATED_DOCUMENTS)) {
    it(`${service}: openapi.json is what its route declarations generate`, async () => {
      const text = await renderDocument(service);
      expect(readFileSync(documentFile(service), 'utf8')).to.equal(text);
    });
  }
});
