// The native DOCX parser on the real exam files, scored against answer keys written by reading each document
// (services/document-import/test/parser/real-truth/corpus-N.json: a stem fingerprint and the answer per question).
// The files are evaluation-only and live beside the clone (../shared/corpus-real-docx, ../shared/corpus-real-docx-2).
//   npx tsx bench/docx-parse/real-eval.ts [dir...]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocx } from '../../services/document-import/src/parser/index.js';
import {
  f1,
  ratio,
  scoreFile,
  sumScores,
  type ParsedOutput,
  type RealScore,
  type TruthSet,
} from '../../services/document-import/test/parser/support/real-truth.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const TRUTH_DIR = join(root, 'services/document-import/test/parser/real-truth');
const DEFAULT_DIRS = ['corpus-real-docx', 'corpus-real-docx-2'].map((d) => resolve(root, '../shared', d));

/** corpus-real-docx → corpus-1.json, corpus-real-docx-N → corpus-N.json */
function truthFileFor(dir: string): string | null {
  const m = /^corpus-real-docx(?:-(\d+))?$/.exec(basename(dir));
  return m ? join(TRUTH_DIR, `corpus-${m[1] ?? 1}.json`) : null;
}

const pct = (n: number, d: number): string => (d ? `${((100 * n) / d).toFixed(1)}%` : 'n/a');
const frac = (n: number | null, d: number | null): string => (n === null || d === null ? 'n/a' : `${n}/${d}`);

function row(name: string, s: RealScore, note = ''): string {
  const cells = [
    name.padEnd(40),
    `${s.matched}/${s.truth}/${s.found}`.padStart(13),
    f1(s).toFixed(3).padStart(6),
    `${frac(s.right, s.keyed)} ${pct(s.right, s.keyed)}`.padStart(17),
    frac(s.statementsRight, s.statements).padStart(7),
    `${frac(s.returnedRight, s.returned)} ${pct(s.returnedRight, s.returned)}`.padStart(17),
    (s.confident === null ? 'n/a' : frac(s.confidentRight, s.confident)).padStart(9),
    `${s.unanswered}/${s.unansweredWarned}`.padStart(8),
    String(s.invented).padStart(4),
  ];
  return cells.join(' ') + (note ? `  ${note}` : '');
}
const HEADER = [
  'file'.padEnd(40),
  'match/tru/fnd'.padStart(13),
  'F1'.padStart(6),
  'answers right'.padStart(17),
  'T/F'.padStart(7),
  'answer precision'.padStart(17),
  'conf≥0.9'.padStart(9),
  'unans/w'.padStart(8),
  'inv'.padStart(4),
].join(' ');

function evaluateSet(dir: string): void {
  const truthPath = truthFileFor(dir);
  if (!existsSync(dir)) return console.log(`skipped ${dir}: folder absent`);
  if (!truthPath || !existsSync(truthPath))
    return console.log(`skipped ${dir}: no truth file (${truthPath ?? 'unknown set name'})`);
  const truth = JSON.parse(readFileSync(truthPath, 'utf8')) as TruthSet;
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.docx'))
    .sort();
  console.log(`\n${dir}  (truth: ${basename(truthPath)})\n${HEADER}`);
  const scores: RealScore[] = [];
  for (const f of files) {
    const name = f.replace(/\.docx$/, '');
    const t = truth[name];
    if (!t) {
      console.log(`${name.padEnd(40)} no truth entry, not scored`);
      continue;
    }
    let out: ParsedOutput | null = null;
    let note = '';
    try {
      out = parseDocx(readFileSync(join(dir, f))) as unknown as ParsedOutput;
    } catch (e) {
      note = `refused: ${(e as { code?: string }).code ?? (e as Error).message}`;
    }
    const s = scoreFile(t, out);
    scores.push(s);
    console.log(row(name, s, note));
  }
  for (const name of Object.keys(truth))
    if (!files.includes(`${name}.docx`)) console.log(`${name}: in the truth, file absent`);
  const total = sumScores(scores);
  console.log(row('ALL (micro)', total));
  const avg = (xs: (number | null)[]): string => {
    const v = xs.filter((x): x is number => x !== null);
    return v.length ? (v.reduce((a, b) => a + b, 0) / v.length).toFixed(3) : 'n/a';
  };
  console.log(
    `per-file average (${scores.length} files): F1 ${avg(scores.map(f1))}, answers right ${avg(scores.map((s) => ratio(s.right, s.keyed)))}, ` +
      `T/F statements ${avg(scores.map((s) => ratio(s.statementsRight, s.statements)))}, answer precision ${avg(scores.map((s) => ratio(s.returnedRight, s.returned)))}, ` +
      `conf≥0.9 right ${avg(scores.map((s) => (s.confident === null ? null : ratio(s.confidentRight!, s.confident))))}`,
  );
}

console.log(
  'match/tru/fnd: questions matched by fingerprint / in the truth / found by the parser; answers right: of keyed truth questions;\n' +
    'T/F: statements with the right value; answer precision: parser answers on matched questions equal to the truth;\n' +
    'conf≥0.9: right of answers at answer_confidence >= 0.9; unans/w: keyed questions left unanswered / of them warned\n' +
    'DOCX_NATIVE_ANSWER_MISSING; inv: answers returned in a document the truth says states none.',
);
const args = process.argv.slice(2);
for (const dir of args.length ? args.map((a) => resolve(a)) : DEFAULT_DIRS) evaluateSet(dir);
