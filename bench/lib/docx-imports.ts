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

async function uploadOne(i: Importer, docx: Uint8Array, questions: number): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([docx], { type: DOCX_TYPE }), `de-thi-${questions}-cau.docx`);
  const res = await fetch(`${i.base}/v1/import/docx/qas/jobs`, { method: 'POST', headers: headers(i), body: form });
  const body = (await res.json()) as { data?: { id?: string } };
  if (res.status !== 202 || !body.data?.id) throw new Error(`upload: ${res.status} ${JSON.stringify(body)}`);
  return body.data.id;
}

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
