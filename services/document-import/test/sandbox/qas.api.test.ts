// Issue 20, as an attacker tries it over HTTP against the running service: a long document posted to the
// synchronous QAS route no longer stops the service's event loop, and a document of too many elements is refused.
import { expect } from 'chai';
import { startTestService, type TestService } from '../../../kit/test/support/harness.js';
import { parserSandbox } from '../../src/sandbox/index.js';
import { documentImportService } from '../../src/service.js';
import { headers, teacher } from '../api/support.js';
import { longDocx, tooManyElements } from './support.js';

type Svc = TestService<
  Record<string, unknown> & { PORT: number },
  Awaited<ReturnType<typeof documentImportService.build>>
>;

describe('document-import: DOCX parsing off the event loop (issue 20)', () => {
  let svc: Svc;
  before(async () => {
    svc = (await startTestService(documentImportService, { file: import.meta.url })) as unknown as Svc;
  });
  after(() => svc.close());

  const postQas = (file: Uint8Array) =>
    svc.request
      .post('/v1/import/docx/qas')
      .set(headers(teacher()))
      .attach('file', Buffer.from(file), { filename: 'de-thi.docx' });

  it('POST /v1/import/docx/qas of a 40,000-line question answers 200 while GET /healthz keeps answering', async () => {
    await postQas(longDocx(100)).expect(200); // the parse thread is up
    let done = false;
    let answeredMeanwhile = 0;
    const qas = postQas(longDocx()).then((res) => {
      done = true;
      return res;
    });
    // an answer counts when the service's parse thread was busy with the document as it arrived
    while (!done) {
      const health = await fetch(`${svc.url}/healthz`);
      if (health.status === 200 && parserSandbox().stats().busy > 0) answeredMeanwhile += 1;
    }
    const res = await qas;
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(200);
    expect(res.body.data.questions).to.have.length(1);
    expect(answeredMeanwhile, '/healthz answers while the document was being parsed').to.be.above(0);
  });

  // The status is the routes' refusal table's (domain/docx-file.ts): a refusal of the file, never a 5xx.
  it('POST /v1/import/docx/qas of a million empty paragraphs (a 0.3 MB upload) is refused 4xx DOCX_TOO_COMPLEX', async () => {
    const res = await postQas(tooManyElements());
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.be.oneOf([413, 422]);
    expect(res.body.error.code).to.equal('DOCX_TOO_COMPLEX');
    expect(res.body.error.details).to.include({ part: 'word/document.xml', limit: 'paragraphs (w:p)' });
  });
});
