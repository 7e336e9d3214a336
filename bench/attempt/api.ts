// The attempt API as a student's browser calls it (X-User-Id, X-User-Role STUDENT), each call timed.
// A refused call is an error of the bench, counted and its first reply kept for the report. Save and
// submit replies are read whole but not parsed (the bench shares the cores with the service): what
// they wrote is checked in the database after the phase.
import { saveBody, startBody } from './exam.js';

export interface Timed {
  ok: boolean;
  ms: number;
}

export class AttemptApi {
  firstError: string | null = null;

  constructor(readonly base: string) {}

  private async call(student: string, path: string, body: unknown) {
    const t = performance.now();
    const res = await fetch(`${this.base}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-User-Id': student, 'X-User-Role': 'STUDENT' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    const ms = performance.now() - t;
    if (!res.ok) this.firstError ??= `POST ${path}: ${res.status} ${text.slice(0, 300)}`;
    return { ok: res.ok, ms, text };
  }

  /** Starts (201, created) the student's attempt at `examId`; its id. */
  async start(examId: string, student: string): Promise<{ id: string; ms: number }> {
    const r = await this.call(student, `/v1/exams/${examId}/attempts`, startBody(examId, student));
    const data = r.ok ? (JSON.parse(r.text) as { data: { created?: boolean; attempt?: { id?: string } } }).data : null;
    if (data?.created !== true || typeof data.attempt?.id !== 'string') {
      throw new Error(`bench: start failed: ${r.text.slice(0, 300)}`);
    }
    return { id: data.attempt.id, ms: r.ms };
  }

  async save(student: string, attemptId: string, q: { i: number; seed: number; version: number }): Promise<Timed> {
    const r = await this.call(student, `/v1/attempts/${attemptId}/answers`, saveBody(q.i, q.seed, q.version));
    return { ok: r.ok, ms: r.ms };
  }

  async submit(student: string, attemptId: string): Promise<Timed> {
    const r = await this.call(student, `/v1/attempts/${attemptId}/submit`, { source: 'STUDENT' });
    return { ok: r.ok, ms: r.ms };
  }
}

/** Runs `task(0..n-1)` with at most `clients` in flight; results in index order. */
export async function pool<T>(n: number, clients: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out = new Array<T>(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(clients, n) }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await task(i);
      }
    }),
  );
  return out;
}
