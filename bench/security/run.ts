// bench/security: does a hostile request stall anyone else? The platform runs as the security suite
// starts it (real production-mode processes behind the gateway). For each hostile input, /healthz of
// the service under attack is probed back to back while the input is processed; the figures sit
// beside the same probes on the idle service in the same run (report the ratio: the machine is
// noisy). Also the API process's peak RSS (VmHWM) across a hostile upload.
//   make bench-security
import { readFileSync } from 'node:fs';
import { fmt, summarize } from '../lib/load.js';
import { call } from '../../security/support/http.js';
import { continuationLines, manyElements, smallExam } from '../../security/support/hostile.js';
import { startStack, type Stack } from '../../security/support/stack.js';

const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? '2000');

async function probeWhile(url: string, work: Promise<unknown>): Promise<number[]> {
  let done = false;
  const latencies: number[] = [];
  void work.finally(() => (done = true));
  while (!done) {
    const t = performance.now();
    await call(`${url}/healthz`);
    latencies.push(performance.now() - t);
  }
  await work;
  return latencies;
}

const idle = (url: string) => probeWhile(url, new Promise((r) => setTimeout(r, IDLE_MS)));

function hwmMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

function line(name: string, base: number[], under: number[]): void {
  const b = summarize(base);
  const u = summarize(under);
  console.log(
    `${name.padEnd(44)} healthz p99 ${fmt(u.p99)} ms max ${fmt(u.max)} ms (n=${u.count})` +
      ` | idle p99 ${fmt(b.p99)} ms max ${fmt(b.max)} ms | max ratio ${(u.max / b.max).toFixed(1)}x`,
  );
}

async function main(): Promise<void> {
  const stack: Stack = await startStack('bench-security');
  try {
    const di = stack.services['document-import'];
    const teacher = {
      'X-Internal-Token': stack.secrets.internal,
      'X-User-Id': 'teacher-1',
      'X-User-Role': 'TEACHER',
      'X-Organization-Id': 'school-1',
    };
    const upload = (path: string, bytes: Uint8Array) => {
      const form = new FormData();
      form.append('file', new Blob([bytes]), 'de-thi.docx');
      return call(`${di}${path}`, { method: 'POST', headers: teacher, body: form });
    };
    await upload('/v1/import/docx/qas', smallExam());
    const base = await idle(di);
    const rssBefore = hwmMb(stack.pids['document-import']!);
    line(
      'QAS sync, 40,000 continuation lines',
      base,
      await probeWhile(di, upload('/v1/import/docx/qas', continuationLines(40_000))),
    );
    line(
      'QAS sync, 1,200,000 empty elements',
      base,
      await probeWhile(di, upload('/v1/import/docx/qas', manyElements())),
    );
    const rssAfter = hwmMb(stack.pids['document-import']!);
    console.log(`document-import peak RSS ${fmt(rssBefore)} MB before the hostile uploads, ${fmt(rssAfter)} MB after`);
    const job = await upload('/v1/import/docx/qas/jobs', smallExam());
    const id = (job.body.data as { id: string }).id;
    for (;;) {
      const res = await call(`${di}/v1/import/docx/jobs/${id}/status`, { headers: teacher });
      if ((res.body.data as { status?: string } | undefined)?.status === 'COMPLETED') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const review = (sourceText: string) =>
      call(`${di}/v1/import/docx/jobs/${id}/review`, { method: 'PATCH', headers: teacher, json: { sourceText } });
    line('review, 1,000,000 spaces', base, await probeWhile(di, review(' '.repeat(1_000_000))));
    const auth = stack.services.auth;
    const authBase = await idle(auth);
    const flood = Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        call(`${stack.gateway}/api/auth/register`, {
          method: 'POST',
          headers: { 'X-Forwarded-For': '203.0.113.9' },
          json: {
            email: `flood-${i}@example.com`,
            password: 'Correct-Horse-9',
            fullName: 'Flood Test',
            role: 'STUDENT',
          },
        }),
      ),
    );
    line('auth, 200 registrations from one address', authBase, await probeWhile(auth, flood));
  } finally {
    await stack.close();
  }
}

await main();
