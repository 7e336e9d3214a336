// The document-import API as a teacher uses it: multipart uploads into jobs, job reads.
export const TEACHER = { 'X-Organization-Id': 'org-bench', 'X-User-Id': 'teacher-bench', 'X-User-Role': 'TEACHER' };

export interface Submitted {
  id: string;
  /** Wall clock (ms) when the upload started and when its 202 arrived; the workers stamp the same clock. */
  started: number;
  accepted: number;
}

export interface Finished extends Submitted {
  /** When a worker took the job (job.started). */
  startedAt: number;
  completedAt: number;
  questions: number;
}

interface Envelope<T> {
  data?: T;
}

async function json<T>(res: Response, what: string): Promise<T> {
  const body = (await res.json().catch(() => ({}))) as Envelope<T>;
  if (!res.ok || body.data === undefined) throw new Error(`bench: ${what}: ${res.status} ${JSON.stringify(body)}`);
  return body.data;
}

export class ImportApi {
  constructor(private readonly base: string) {}

  async ready(): Promise<boolean> {
    return (await fetch(`${this.base}/readyz`).catch(() => null))?.ok ?? false;
  }

  /** Uploads refused with 503 or 429 and Retry-After (UPLOADS_BUSY, DOCX_PARSER_BUSY, UPLOADS_PER_CLIENT) and sent
   * again, as a client must. */
  busyRetries = 0;

  /**
   * One upload into a job. A 503 with Retry-After (the API's admission cap: UPLOAD_MAX_CONCURRENT
   * uploads at once) or a 429 with Retry-After (one teacher's or school's share of them) is waited
   * out and sent again, as a teacher's client does; `started` is the first attempt, so the wait
   * counts in the figures.
   */
  async upload(bytes: Uint8Array, fileName: string): Promise<Submitted> {
    const started = Date.now();
    for (;;) {
      const form = new FormData();
      form.append('file', new Blob([bytes]), fileName);
      const res = await fetch(`${this.base}/v1/import/docx/qas/jobs`, { method: 'POST', headers: TEACHER, body: form });
      const retryAfter = res.status === 503 || res.status === 429 ? Number(res.headers.get('retry-after')) : NaN;
      if (Number.isFinite(retryAfter)) {
        await res.body?.cancel();
        this.busyRetries += 1;
        await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
        continue;
      }
      const accepted = Date.now();
      if (res.status !== 202) throw new Error(`bench: upload ${fileName}: ${res.status} ${await res.text()}`);
      const job = await json<{ id: string; status: string }>(res, `upload ${fileName}`);
      return { id: job.id, started, accepted };
    }
  }

  /** How many jobs whose file name contains `q` have `status` (one cheap list read, limit 1). */
  async count(status: 'PROCESSING' | 'COMPLETED' | 'FAILED', q: string): Promise<number> {
    const url = `${this.base}/v1/import/docx/jobs?status=${status}&q=${encodeURIComponent(q)}&limit=1`;
    const page = await json<{ meta: { total: number } }>(await fetch(url, { headers: TEACHER }), 'list jobs');
    return page.meta.total;
  }

  /** The job's detail must say COMPLETED; its completedAt is stamped with its `job.completed` event. */
  async finished(job: Submitted): Promise<Finished> {
    const res = await fetch(`${this.base}/v1/import/docx/jobs/${job.id}`, { headers: TEACHER });
    const detail = await json<{
      status: string;
      startedAt: string | null;
      completedAt: string | null;
      counters: { totalQuestions?: number };
    }>(res, `job ${job.id}`);
    if (detail.status !== 'COMPLETED' || !detail.completedAt) {
      throw new Error(`bench: job ${job.id} is ${detail.status}, not COMPLETED`);
    }
    return {
      ...job,
      startedAt: Date.parse(detail.startedAt ?? detail.completedAt),
      completedAt: Date.parse(detail.completedAt),
      questions: detail.counters.totalQuestions ?? 0,
    };
  }
}

/** Runs `op(i)` for i < n with at most `clients` in flight. */
export async function pool<T>(n: number, clients: number, op: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array<T>(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, clients) }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await op(i);
      }
    }),
  );
  return out;
}
