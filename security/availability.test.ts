import { expect } from 'chai';
import { call, until } from './support/http.js';
import { continuationLines, deepNesting, manyElements, smallExam } from './support/hostile.js';
import { startStack, type Stack } from './support/stack.js';

// One teacher account is enough to send these; none may stall the service for everyone else.
describe('security: availability under hostile input (real processes)', function () {
  this.timeout(240000);
  let stack: Stack;
  let importer: string;
  let teacher: Record<string, string>;
  before(async () => {
    stack = await startStack(import.meta.url);
    importer = stack.services['document-import'];
    teacher = {
      'X-Internal-Token': stack.secrets.internal,
      'X-User-Id': 'teacher-1',
      'X-User-Role': 'TEACHER',
      'X-Organization-Id': 'school-1',
    };
  });
  after(() => stack?.close());

  const upload = (path: string, bytes: Uint8Array) => {
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'de-thi.docx');
    return call(`${importer}${path}`, { method: 'POST', headers: teacher, body: form });
  };

  /** Probes /healthz while `work` runs; the number of probes answered before `work` settled. */
  async function healthWhile<T>(work: Promise<T>): Promise<{ result: T; answered: number }> {
    let settled = false;
    let answered = 0;
    const probing = (async () => {
      while (!settled) {
        const res = await call(`${importer}/healthz`);
        if (!settled && res.status === 200) answered += 1;
      }
    })();
    const result = await work.finally(() => (settled = true));
    await probing;
    return { result, answered };
  }

  it('the synchronous QAS route parses 40,000 continuation lines off the event loop', async () => {
    const { result, answered } = await healthWhile(upload('/v1/import/docx/qas', continuationLines(40_000)));
    expect(result.status, result.text.slice(0, 300)).to.be.below(500);
    // A parse on the event loop would leave the probes queued behind it until the answer.
    expect(answered).to.be.at.least(3);
    const small = await upload('/v1/import/docx/qas', smallExam());
    expect(small.status).to.equal(200);
  });

  it('a document of a million elements or absurd nesting is refused with a 4xx, and the service lives on', async () => {
    for (const [name, bytes] of [
      ['many elements', manyElements()],
      ['deep nesting', deepNesting()],
    ] as const) {
      const res = await upload('/v1/import/docx/qas', bytes);
      expect(res.status, `${name}: ${res.text.slice(0, 200)}`).to.be.within(400, 499);
    }
    expect((await call(`${importer}/healthz`)).status).to.equal(200);
    expect((await upload('/v1/import/docx/qas', smallExam())).status).to.equal(200);
  });

  it('a review text of a million spaces is answered, and /healthz with it', async () => {
    const job = await upload('/v1/import/docx/qas/jobs', smallExam());
    expect(job.status, job.text.slice(0, 300)).to.be.oneOf([200, 201, 202]);
    const id = (job.body.data as { id: string }).id;
    await until(`job ${id} completed`, async () => {
      const res = await call(`${importer}/v1/import/docx/jobs/${id}/status`, { headers: teacher });
      return (res.body.data as { status?: string } | undefined)?.status === 'COMPLETED';
    });
    for (const sourceText of [' '.repeat(1_000_000), `Câu 1. x\n${' \t'.repeat(499_990)}A.`]) {
      const { result, answered } = await healthWhile(
        call(`${importer}/v1/import/docx/jobs/${id}/review`, {
          method: 'PATCH',
          headers: teacher,
          json: { sourceText },
        }),
      );
      expect(result.status, result.text.slice(0, 300)).to.equal(200);
      expect(answered).to.be.at.least(1);
    }
  });
});
