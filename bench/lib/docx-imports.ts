// DOCX import jobs through a document-import base URL (a Service on a node, a local process), as a
// teacher of one organization: upload a burst, read every job's status. Used by the node suite
// (what the operator scales on, what a killed worker must not lose) and bench/operator.
import { makeExam } from '../docx-parse/make-exam.js';

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

export interface Importer {
  base: string;
  internalToken: string;
  organizationId: string;
}

const headers = (i: Importer): Record<string, string> => ({
  'X-Internal-Token': i.internalToken,
  'X-Organization-Id': i.organizationId,
  'X-User-Id': `teacher-${i.organizationId}`,
  'X-User-Role': 'TEACHER',
});

/**
 * One upload, as a well-behaved client sends it: a 503 with Retry-After (the pod's upload slots are
 * all taken: UPLOADS_BUSY) or a 429 with Retry-After (this teacher or school already spools its
 * share of them: UPLOADS_PER_CLIENT, UPLOADS_PER_ORGANIZATION) is retried after that wait, and so is
 * a connection the server cut while the body was still going (it answers a refusal without reading
 * the rest); anything else is final.
 */
async function uploadOne(i: Importer, docx: Uint8Array, questions: number): Promise<string> {
  for (let attempt = 1; ; attempt += 1) {
    const form = new FormData();
    form.append('file', new Blob([docx], { type: DOCX_TYPE }), `de-thi-${questions}-cau.docx`);
    let res: Response;
    try {
      res = await fetch(`${i.base}/v1/import/docx/qas/jobs`, { method: 'POST', headers: headers(i), body: form });
    } catch (err) {
      if (attempt >= UPLOAD_TRIES) throw err;
      await sleep(1000);
      continue;
    }
    const body = (await res.json()) as { data?: { id?: string } };
    if ((res.status === 503 || res.status === 429) && attempt < UPLOAD_TRIES) {
      await sleep(1000 * Number(res.headers.get('retry-after') ?? '1'));
      continue;
    }
    if (res.status !== 202 || !body.data?.id) throw new Error(`upload: ${res.status} ${JSON.stringify(body)}`);
    return body.data.id;
  }
}

const UPLOAD_TRIES = 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `count` uploads of a `questions`-question exam, all sent at once; the job ids. */
export async function uploadBurst(i: Importer, count: number, questions = 40): Promise<string[]> {
  const docx = await makeExam(questions);
  return Promise.all(Array.from({ length: count }, () => uploadOne(i, docx, questions)));
}

export async function jobState(i: Importer, id: string): Promise<string> {
  const res = await fetch(`${i.base}/v1/import/docx/jobs/${id}/status`, { headers: headers(i) });
  const body = (await res.json()) as { data?: { status?: string } };
  if (res.status !== 200 || !body.data?.status)
    throw new Error(`status of ${id}: ${res.status} ${JSON.stringify(body)}`);
  return body.data.status;
}

/** Each job's status, counted: `{ COMPLETED: 18, PROCESSING: 2 }`. */
export async function tally(i: Importer, ids: string[]): Promise<Record<string, number>> {
  const states = await Promise.all(ids.map((id) => jobState(i, id)));
  const out: Record<string, number> = {};
  for (const s of states) out[s] = (out[s] ?? 0) + 1;
  return out;
}
