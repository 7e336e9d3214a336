import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'chai';
import { parseDocx } from '../../src/parser/index.js';
import { makeDocx } from './support/build-docx.js';
import { buildCorpus } from './support/corpus.js';

// The service's OpenAPI document states the QAS output; every output of the corpus must match it,
// so the document cannot drift from what the parser produces.
const doc = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as object;
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema({ ...doc, $id: 'document-import.openapi.json' });
const validate = ajv.compile({ $ref: 'document-import.openapi.json#/components/schemas/QasOutput' });

describe('document-import OpenAPI: QasOutput', () => {
  it('every parser output of the generated corpus validates against components.schemas.QasOutput', async () => {
    for (const corpusDoc of buildCorpus()) {
      const out = await parseDocx(await makeDocx(corpusDoc.blocks));
      const ok = validate(out);
      expect(ok, `${corpusDoc.convention}: ${ajv.errorsText(validate.errors)}`).to.equal(true);
    }
  });

  it('refuses an output that breaks the document (an unknown type, a leaked extra field)', () => {
    const bad = {
      document_id: 'd',
      latency_ms: 1,
      questions: [],
      groups: [],
      warnings: [],
      stats: {
        total_questions: 0,
        total_images: 0,
        total_equation_objects: 0,
        total_formulas: 0,
        answered: 0,
        by_type: { ESSAYS: 1 },
        paragraphs: 0,
      },
      bytes: 'x',
    };
    expect(validate(bad)).to.equal(false);
  });
});
