// bench/docx-parse: the native parser on a 120-question exam with pictures and equations, beside mammoth's HTML
// conversion of the same file in the same run; then the native parser's time per KiB of word/document.xml on that
// exam and on a ~40,000-line document (make-long-document.ts), side by side, so work that grows faster than the
// document shows as a ratio. Each engine runs in its own child process (peak RSS is per engine); rounds alternate
// native/mammoth/long so machine noise hits them alike. Reports medians.
// Last, issue 20's continuation shapes at n and 2n lines (continuation.ts), time for each and their ratio.
//   node --import tsx bench/docx-parse/run.ts   (make bench-docx)
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { unzipSync } from 'fflate';
import { makeDocx } from '../../services/document-import/test/parser/support/build-docx.js';
import { makeExam } from './make-exam.js';
import { CONTINUATION_LINES, CONTINUATION_SHAPES } from './continuation.js';
import { LONG_DOCUMENT_QUESTIONS, lineCount, longDocumentBlocks } from './make-long-document.js';

const run = promisify(execFile);
const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 120);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
// The long document takes seconds per parse while the parser is quadratic: few runs, one warm-up.
const LONG_RUNS = Number(process.env.BENCH_LONG_RUNS ?? 3);
const RATIO_GOAL = 3;
const child = fileURLToPath(new URL('./child.ts', import.meta.url));

interface Result {
  ms: number[];
  questions: number;
  maxRssMb: number;
}

interface Doc {
  file: string;
  bytes: Uint8Array;
  /** word/document.xml, uncompressed: the text the parser reads (pictures are never inflated) */
  xmlKiB: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function engine(name: string, file: string, runs = RUNS, warmups = 10): Promise<Result> {
  const args = ['--import', 'tsx', child, name, file, String(runs), String(warmups)];
  const { stdout } = await run(process.execPath, args, { maxBuffer: 1 << 24 });
  return JSON.parse(stdout) as Result;
}

async function writeDoc(dir: string, name: string, bytes: Uint8Array): Promise<Doc> {
  const file = join(dir, name);
  await writeFile(file, bytes);
  const xml = unzipSync(bytes, { filter: (f) => f.name === 'word/document.xml' })['word/document.xml']!;
  return { file, bytes, xmlKiB: xml.length / 1024 };
}

const kib = (n: number) => `${Math.round(n).toLocaleString('en-US')} KiB`;
const peak = (rs: Result[]) => `${Math.max(...rs.map((x) => x.maxRssMb)).toFixed(0)} MB`;

function perKiB(label: string, ms: number, doc: Doc): number {
  const v = ms / doc.xmlKiB;
  console.log(
    `  ${label.padEnd(14)} ${(v * 1000).toFixed(1).padStart(6)} µs/KiB  (${ms.toFixed(1)} ms / ${kib(doc.xmlKiB)})`,
  );
  return v;
}

async function continuation(dir: string): Promise<void> {
  const n = CONTINUATION_LINES;
  console.log('');
  console.log(
    `continuation lines (issue 20), native parser, median of ${LONG_RUNS} runs, n = ${n.toLocaleString('en-US')}:`,
  );
  for (const [shape, make] of Object.entries(CONTINUATION_SHAPES)) {
    const ms: number[] = [];
    for (const size of [n, 2 * n]) {
      const file = join(dir, `continuation-${size}.docx`);
      await writeFile(file, await make(size));
      ms.push(median((await engine('native', file, LONG_RUNS, 1)).ms));
    }
    const [a, b] = ms as [number, number];
    console.log(
      `  ${shape.padEnd(30)} n ${a.toFixed(0).padStart(6)} ms   2n ${b.toFixed(0).padStart(6)} ms   ratio ${(b / a).toFixed(2)} (linear ≈ 2, quadratic ≈ 4)`,
    );
  }
}

const dir = await mkdtemp(join(tmpdir(), 'bench-docx-'));
try {
  const exam = await writeDoc(dir, 'exam.docx', await makeExam(QUESTIONS));
  const blocks = longDocumentBlocks();
  const long = await writeDoc(dir, 'long.docx', await makeDocx(blocks));
  const idle = await engine('idle', exam.file);
  const native: Result[] = [];
  const baseline: Result[] = [];
  const longNative: Result[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    native.push(await engine('native', exam.file));
    baseline.push(await engine('mammoth', exam.file));
    longNative.push(await engine('native', long.file, LONG_RUNS, 1));
  }
  const n = median(native.flatMap((x) => x.ms));
  const m = median(baseline.flatMap((x) => x.ms));
  const l = median(longNative.flatMap((x) => x.ms));
  const q = native[0]!.questions;
  console.log(`file: ${QUESTIONS}-question exam, ${kib(exam.bytes.length / 1024)}; questions found: ${q}`);
  console.log(`rounds ${ROUNDS} × runs ${RUNS} per engine (median over all runs)`);
  console.log(
    `native parser   ${n.toFixed(1)} ms/file  ${((1000 * n) / q).toFixed(0)} µs/question  peak RSS ${peak(native)}`,
  );
  console.log(`mammoth (HTML)  ${m.toFixed(1)} ms/file  peak RSS ${peak(baseline)}`);
  console.log(`idle child (node + tsx, no engine) peak RSS ${idle.maxRssMb.toFixed(0)} MB`);
  console.log(`speed-up: ${(m / n).toFixed(1)}× (goal ≥ 4×, issue 32); native RSS goal < 150 MB`);
  console.log('');
  console.log(
    `long document: ${lineCount(blocks).toLocaleString('en-US')} lines, ${kib(long.bytes.length / 1024)} file; ` +
      `questions found: ${longNative[0]!.questions} of ${LONG_DOCUMENT_QUESTIONS}; ` +
      `rounds ${ROUNDS} × runs ${LONG_RUNS}, peak RSS ${peak(longNative)}`,
  );
  console.log('native parser, time per KiB of word/document.xml (uncompressed; median ms ÷ size):');
  const examPerKiB = perKiB(`${QUESTIONS}-q exam`, n, exam);
  const ratio = perKiB('long document', l, long) / examPerKiB;
  console.log(`  ratio ${ratio.toFixed(1)}× (goal ≤ ${RATIO_GOAL}×: parsing time grows linearly with the document)`);
  await continuation(dir);
} finally {
  await rm(dir, { recursive: true, force: true });
}
