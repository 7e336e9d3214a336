// bench/docx-parse: the native parser on a 120-question exam with pictures and equations, beside mammoth's HTML
// conversion of the same file in the same run. Each engine runs in its own child process (peak RSS is per engine);
// rounds alternate native/mammoth so machine noise hits both alike. Reports medians.
//   node --import tsx bench/docx-parse/run.ts   (make bench-docx)
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { makeExam } from './make-exam.js';

const run = promisify(execFile);
const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 120);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const child = fileURLToPath(new URL('./child.ts', import.meta.url));

interface Result {
  ms: number[];
  questions: number;
  maxRssMb: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function engine(name: string, file: string): Promise<Result> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', child, name, file, String(RUNS)], {
    maxBuffer: 1 << 24,
  });
  return JSON.parse(stdout) as Result;
}

const dir = await mkdtemp(join(tmpdir(), 'bench-docx-'));
try {
  const file = join(dir, 'exam.docx');
  const bytes = await makeExam(QUESTIONS);
  await writeFile(file, bytes);
  const idle = await engine('idle', file);
  const native: Result[] = [];
  const baseline: Result[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    native.push(await engine('native', file));
    baseline.push(await engine('mammoth', file));
  }
  const n = median(native.flatMap((x) => x.ms));
  const m = median(baseline.flatMap((x) => x.ms));
  const q = native[0]!.questions;
  console.log(`file: ${QUESTIONS}-question exam, ${(bytes.length / 1024).toFixed(0)} KiB; questions found: ${q}`);
  console.log(`rounds ${ROUNDS} × runs ${RUNS} per engine (median over all runs)`);
  console.log(
    `native parser   ${n.toFixed(1)} ms/file  ${((1000 * n) / q).toFixed(0)} µs/question  peak RSS ${Math.max(...native.map((x) => x.maxRssMb)).toFixed(0)} MB`,
  );
  console.log(
    `mammoth (HTML)  ${m.toFixed(1)} ms/file  peak RSS ${Math.max(...baseline.map((x) => x.maxRssMb)).toFixed(0)} MB`,
  );
  console.log(`idle child (node + tsx, no engine) peak RSS ${idle.maxRssMb.toFixed(0)} MB`);
  console.log(`speed-up: ${(m / n).toFixed(1)}× (goal ≥ 5×); native RSS goal < 150 MB`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
