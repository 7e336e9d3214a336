// Seeded property test over generated exam layouts (issue 32, item 4): every combination of label scheme, option
// layout, answer marking, language and noise that support/layout-gen.ts draws must parse to the questions a reader of
// the document sees. LAYOUT_SEEDS=N runs seeds 1..N (1000 by default), LAYOUT_FROM=K from seed K; LAYOUT_SEED=123 runs one seed and dumps the
// generated text and the parser's output; LAYOUT_FAILURES=all lists every failing seed. The run ends with a table of
// failures by dimension value.
import { expect } from 'chai';
import { DocxError, parseDocx, type QasOutput } from '../../src/parser/index.js';
import { makeDocx, type AutoBlock, type AutoList, type Block } from './support/build-docx.js';
import {
  dimValues,
  generateExam,
  LABELS,
  norm,
  renderText,
  type Answer,
  type Exam,
  type QTruth,
} from './support/layout-gen.js';
import { LISTS, rawDocx, type Cell, type NumPara, type RawBlock } from './support/raw-docx.js';

type Property = 'count' | 'stem' | 'answer' | 'keyless' | 'options' | 'option-text';
const PROPERTIES: Property[] = ['count', 'stem', 'answer', 'keyless', 'options', 'option-text'];

interface Problem {
  property: Property;
  position?: number;
  detail: string;
}

interface Q {
  id: string;
  number: number;
  type: string;
  content: string;
  options: { label: string; content: string }[];
  sub_items: { label: string; content: string; correct_boolean: boolean | null }[];
  correct_answer: unknown;
  source_location: { answer_source: string | null };
}

interface Result {
  exam: Exam;
  problems: Problem[];
  out: QasOutput | null;
  error: string | null;
  /** questions with a truth answer, and those the parser left unanswered with a warning (allowed) */
  answerable: number;
  missing: number;
  /** failing properties per truth position */
  byQuestion: Map<number, Set<Property>>;
}

const STEM_WORDS = 4;

function canonical(a: unknown): string {
  if (a === null || a === undefined) return 'null';
  if (Array.isArray(a)) return JSON.stringify(a);
  if (typeof a === 'object') {
    const o = a as Record<string, unknown>;
    return JSON.stringify(
      Object.fromEntries(
        Object.keys(o)
          .sort()
          .map((k) => [k, o[k]]),
      ),
    );
  }
  return JSON.stringify(a);
}

function probe(t: QTruth): string {
  return t.stem.split(' ').slice(0, STEM_WORDS).join(' ');
}

/** The parser's stem as compared: a visible `Question:` / `Câu hỏi:` prefix (a label without a number) may stay. */
function stemOf(q: Q): string {
  return norm(q.content).replace(/^(?:Câu hỏi|Question)\s*:\s*/u, '');
}

/** Truth questions paired with the parser's: by position when the counts agree, else by the stem's first words. */
function pair(truth: QTruth[], got: Q[]): [QTruth, Q][] {
  if (truth.length === got.length) return truth.map((t, i) => [t, got[i]!]);
  const out: [QTruth, Q][] = [];
  let from = 0;
  for (const t of truth) {
    const j = got.findIndex((q, k) => k >= from && stemOf(q).startsWith(probe(t)));
    if (j < 0) continue;
    out.push([t, got[j]!]);
    from = j + 1;
  }
  return out;
}

function short(a: unknown): string {
  return a === null || a === undefined ? 'null' : canonical(a);
}

function checkQuestion(t: QTruth, q: Q, out: QasOutput, r: Result): void {
  const exam = r.exam;
  const add = (property: Property, detail: string): void => {
    r.problems.push({ property, position: t.position, detail: `q${t.position}: ${detail}` });
    if (!r.byQuestion.has(t.position)) r.byQuestion.set(t.position, new Set());
    r.byQuestion.get(t.position)!.add(property);
  };
  // (2) the stem starts with the truth's first words and holds nothing of the options, keys or the next question
  const stem = stemOf(q);
  if (!stem.startsWith(probe(t))) add('stem', `stem "${stem.slice(0, 70)}" does not start with "${probe(t)}"`);
  const foreign = t.foreign.find((f) => stem.includes(f));
  if (foreign) add('stem', `stem holds "${foreign}"`);
  // (3) the truth's answer, or none with a warning; never another answer. (4) keyless papers: checked below.
  const got = q.correct_answer ?? null;
  if (!exam.keyless) {
    if (t.answer !== null) r.answerable++;
    if (canonical(got) !== canonical(t.answer)) {
      const warned = out.warnings.some((w) => w.code === 'DOCX_NATIVE_ANSWER_MISSING' && w.question_id === q.id);
      if (got === null && t.answer !== null && warned) r.missing++;
      else {
        const how =
          got === null ? ' (no DOCX_NATIVE_ANSWER_MISSING warning)' : ` from ${q.source_location.answer_source}`;
        add('answer', `answer ${short(got)}${how}, truth ${short(t.answer as Answer)} (${q.type})`);
      }
    }
  }
  // (5) options: as many as written; statements are no options, an essay has none
  if (t.type === 'single' || t.type === 'multiple') {
    if (q.options.length !== t.options) {
      add(
        'options',
        `${q.options.length} options, truth ${t.options} (${q.type}${q.sub_items.length ? `, ${q.sub_items.length} statements` : ''})`,
      );
    } else {
      const bad = q.options.findIndex((o, i) => norm(o.content) !== t.optionTexts[i]);
      if (bad >= 0)
        add(
          'option-text',
          `option ${q.options[bad]!.label} "${norm(q.options[bad]!.content).slice(0, 60)}", truth "${t.optionTexts[bad]}"`,
        );
    }
  } else if (q.options.length > 0) add('options', `${q.options.length} options on a ${t.type} question (${q.type})`);
  else if (t.type === 'true-false' && q.sub_items.length !== t.options && q.type === 'TRUE_FALSE_GROUP') {
    add('options', `${q.sub_items.length} statements, truth ${t.options}`);
  }
}

function run(exam: Exam, bytes: Uint8Array): Result {
  const r: Result = { exam, problems: [], out: null, error: null, answerable: 0, missing: 0, byQuestion: new Map() };
  let out: QasOutput;
  try {
    out = parseDocx(bytes);
  } catch (err) {
    r.error = err instanceof DocxError ? err.code : String(err);
    // (1) a refusal only for a document without questions (the generator writes none such)
    if (!(r.error === 'DOCX_NO_QUESTIONS_FOUND' && exam.truth.length === 0)) {
      r.problems.push({ property: 'count', detail: `refused: ${r.error}, truth ${exam.truth.length} questions` });
    }
    return r;
  }
  r.out = out;
  const got = out.questions as unknown as Q[];
  // (1) as many questions as written
  if (got.length !== exam.truth.length) {
    r.problems.push({ property: 'count', detail: `${got.length} questions, truth ${exam.truth.length}` });
  }
  const pairs = pair(exam.truth, got);
  for (const [t, q] of pairs) checkQuestion(t, q, out, r);
  if (got.length !== exam.truth.length) {
    const paired = new Set(pairs.map(([t]) => t.position));
    for (const t of exam.truth) {
      if (paired.has(t.position)) continue;
      if (!r.byQuestion.has(t.position)) r.byQuestion.set(t.position, new Set());
      r.byQuestion.get(t.position)!.add('count');
    }
  }
  // (4) a keyless paper gets no answer at all
  if (exam.keyless) {
    const answered = got.filter((q) => q.correct_answer !== null && q.correct_answer !== undefined);
    if (answered.length > 0) {
      const q = answered[0]!;
      r.problems.push({
        property: 'keyless',
        detail: `${answered.length} answers in a keyless paper, e.g. ${q.id} ${short(q.correct_answer)} from ${q.source_location.answer_source}`,
      });
    }
  }
  return r;
}

// ---- the docx library's file of the same blocks (to show the raw writer is not what the parser reads wrongly) ----

function autoBlock(p: NumPara): AutoBlock {
  if (!(p.auto in LISTS)) throw new Error(`unknown list ${p.auto}`);
  return { auto: p.auto as AutoList, text: p.text, instance: p.instance, level: p.level, mark: p.mark };
}

function toLibraryBlock(b: RawBlock): Block {
  if (typeof b === 'string') return b;
  if ('auto' in b) return autoBlock(b);
  return {
    table: b.table.map((row) =>
      row.map((c: Cell) =>
        typeof c === 'string'
          ? c
          : { paras: c.paras.map((p) => (typeof p === 'string' ? p : autoBlock(p))), shade: c.shade },
      ),
    ),
  };
}

function comparable(bytes: Uint8Array): string {
  try {
    const out = parseDocx(bytes);
    return JSON.stringify({ ...out, document_id: null, latency_ms: null });
  } catch (err) {
    return err instanceof DocxError ? err.code : String(err);
  }
}

// ---- the report ----

function dims(exam: Exam): string {
  return dimValues(exam.dims)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
}

function describeFailure(r: Result): string {
  const lines = [`seed ${r.exam.seed} (${r.exam.truth.length} questions): ${dims(r.exam)}`];
  for (const p of r.problems.slice(0, 6)) lines.push(`    ${p.property}: ${p.detail}`);
  if (r.problems.length > 6) lines.push(`    … ${r.problems.length - 6} more`);
  return lines.join('\n');
}

interface Row {
  docs: number;
  failed: number;
  props: Record<Property, number>;
  answerable: number;
  missing: number;
  examples: number[];
}

/** Rows by `dimension=value`, in the order first met. */
class Tally {
  readonly rows = new Map<string, Row>();

  row(key: string): Row {
    let row = this.rows.get(key);
    if (!row) {
      row = {
        docs: 0,
        failed: 0,
        props: Object.fromEntries(PROPERTIES.map((p) => [p, 0])) as Record<Property, number>,
        answerable: 0,
        missing: 0,
        examples: [],
      };
      this.rows.set(key, row);
    }
    return row;
  }

  count(key: string, seed: number, failing: Set<Property>): Row {
    const row = this.row(key);
    row.docs++;
    if (failing.size === 0) return row;
    row.failed++;
    for (const p of failing) row.props[p]++;
    if (row.examples.length < 3 && !row.examples.includes(seed)) row.examples.push(seed);
    return row;
  }
}

const pct = (a: number, b: number): string => (b ? `${((100 * a) / b).toFixed(0)}%` : '-');

function tallies(results: Result[]): { docs: Tally; questions: Tally } {
  const docs = new Tally();
  const questions = new Tally();
  for (const r of results) {
    const failing = new Set(r.problems.map((p) => p.property));
    for (const [k, v] of dimValues(r.exam.dims)) {
      const row = docs.count(`${k}=${v}`, r.exam.seed, failing);
      row.answerable += r.answerable;
      row.missing += r.missing;
    }
    // per-question variations: counted by question
    for (const t of r.exam.truth) {
      const bad = r.byQuestion.get(t.position) ?? new Set<Property>();
      const vars = Object.entries(t.vars).filter(([, v]) => v !== '-');
      vars.forEach(([k, v]) => questions.count(`q.${k}=${v}`, r.exam.seed, bad));
    }
  }
  return { docs, questions };
}

/** Keys grouped by dimension (in the order first met), values in a natural order. */
function sortKeys(keys: string[]): string[] {
  const dimsOrder = [...new Set(keys.map((k) => k.split('=')[0]!))];
  const valueRank = (k: string): number | string => {
    const v = k.split('=')[1]!;
    const label = (LABELS as readonly string[]).indexOf(v);
    return label >= 0 ? label : /^\d+$/.test(v) ? Number(v) : v;
  };
  return [...keys].sort((a, b) => {
    const da = dimsOrder.indexOf(a.split('=')[0]!);
    const db = dimsOrder.indexOf(b.split('=')[0]!);
    if (da !== db) return da - db;
    const va = valueRank(a);
    const vb = valueRank(b);
    return typeof va === 'number' && typeof vb === 'number' ? va - vb : String(va).localeCompare(String(vb));
  });
}

const SHORT: Record<Property, string> = {
  count: 'count',
  stem: 'stem',
  answer: 'answer',
  keyless: 'keyless',
  options: 'options',
  'option-text': 'opt-text',
};

const HEAD = `${'dimension=value'.padEnd(32)} ${'docs'.padStart(5)} ${'fail'.padStart(5)} ${'fail%'.padStart(5)}  ${PROPERTIES.map((p) => SHORT[p].padStart(8)).join(' ')}  ${'missing'.padStart(7)}  examples`;

function tallyLines(t: Tally, missing: boolean): string[] {
  const out: string[] = [];
  let last = '';
  for (const key of sortKeys([...t.rows.keys()])) {
    const row = t.rows.get(key)!;
    const dim = key.split('=')[0]!;
    if (dim !== last && last) out.push('');
    last = dim;
    const props = PROPERTIES.map((p) => String(row.props[p] || '.').padStart(8)).join(' ');
    const miss = (missing ? pct(row.missing, row.answerable) : '').padStart(7);
    out.push(
      `${key.padEnd(32)} ${String(row.docs).padStart(5)} ${String(row.failed).padStart(5)} ${pct(row.failed, row.docs).padStart(5)}  ${props}  ${miss}  ${row.examples.join(', ')}`,
    );
  }
  return out;
}

function table(results: Result[]): string {
  const { docs, questions } = tallies(results);
  return [
    'Failures by dimension value (documents; a document counts under each of its values; missing = answers the parser left out with a warning, allowed):',
    HEAD,
    ...tallyLines(docs, true),
    '',
    'Per question (questions; a question counts under each of its variations):',
    HEAD.replace('docs', ' qs '),
    ...tallyLines(questions, false),
  ].join('\n');
}

function dump(r: Result): string {
  const e = r.exam;
  const out = [
    `seed ${e.seed}: ${dims(e)}`,
    '',
    '--- generated document ---',
    renderText(e.blocks),
    '',
    '--- truth ---',
  ];
  for (const t of e.truth) {
    out.push(
      `q${t.position} #${t.number ?? '-'} ${t.type} options=${t.options} answer=${short(t.answer)} stem="${t.stem}"`,
    );
  }
  out.push('', '--- parser ---');
  if (r.error) out.push(`refused: ${r.error}`);
  for (const q of (r.out?.questions ?? []) as unknown as Q[]) {
    out.push(
      `${q.id} #${q.number} ${q.type} answer=${short(q.correct_answer)} (${q.source_location.answer_source ?? 'none'})`,
    );
    out.push(`    content: ${JSON.stringify(q.content)}`);
    for (const o of q.options) out.push(`    ${o.label}: ${JSON.stringify(o.content)}`);
    for (const s of q.sub_items) out.push(`    ${s.label}) ${JSON.stringify(s.content)} ${s.correct_boolean}`);
  }
  if (r.out)
    out.push(
      `warnings: ${r.out.warnings.map((w) => `${w.code}${w.question_id ? `@${w.question_id}` : ''}`).join(', ')}`,
    );
  out.push(
    '',
    '--- problems ---',
    ...(r.problems.length ? r.problems.map((p) => `${p.property}: ${p.detail}`) : ['none']),
  );
  return out.join('\n');
}

function seeds(): number[] {
  if (process.env.LAYOUT_SEED) return [Number(process.env.LAYOUT_SEED)];
  const n = Number(process.env.LAYOUT_SEEDS ?? 1000);
  const from = Number(process.env.LAYOUT_FROM ?? 1);
  return Array.from({ length: n }, (_, i) => from + i);
}

describe('docx parser: generated exam layouts (seeded properties)', function () {
  this.timeout(300_000);

  it('the generator is deterministic and keeps its own rules', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const e = generateExam(seed);
      expect(JSON.stringify(generateExam(seed)), `seed ${seed}`).to.equal(JSON.stringify(e));
      const d = e.dims;
      expect(e.truth.length, `seed ${seed}`).to.be.within(3, 25);
      if (e.keyless)
        expect(
          e.truth.every((t) => t.answer === null),
          `seed ${seed} keyless`,
        ).to.equal(true);
      if (d.marking === 'bold') expect(d.optionLabelBold, `seed ${seed}: bold answers, bold labels`).to.equal(false);
      if (d.marking === 'key-list' || d.marking === 'key-table') {
        expect(d.label.startsWith('none') || d.restart || d.repeat, `seed ${seed}: key by number`).to.equal(false);
      }
      if (d.multi) expect(['red', 'bold', 'underline', 'highlight', 'star']).to.include(d.marking);
      if (d.tf) expect(d.lang).to.equal('vi');
      if (d.optionStyle.startsWith('a') && (d.lang === 'vi' || d.label.startsWith('cau'))) {
        expect(
          ['key-line', 'typed-letter', 'key-list', 'key-table'],
          `seed ${seed}: a) in a Vietnamese exam`,
        ).to.include(d.marking);
      }
      if (e.keyless) expect(d.explanations).to.equal(false);
      for (const t of e.truth) {
        expect(new Set(t.optionTexts).size, `seed ${seed} q${t.position}`).to.equal(t.optionTexts.length);
        if (t.type === 'multiple' && t.answer) expect((t.answer as string[]).length).to.be.within(2, t.options - 2);
      }
      expect(new Set(e.truth.map(probe)).size, `seed ${seed}: stems`).to.equal(e.truth.length);
    }
  });

  it('the raw OOXML writer reads as the docx library writes the same blocks', async () => {
    for (let seed = 1; seed <= 40; seed++) {
      const e = generateExam(seed);
      const library = await makeDocx(e.blocks.map(toLibraryBlock));
      expect(comparable(rawDocx(e.blocks)), `seed ${seed}`).to.equal(comparable(library));
    }
  });

  it('parses every generated layout to the questions, stems, options and answers written', () => {
    const results: Result[] = [];
    let build = 0;
    let parse = 0;
    for (const seed of seeds()) {
      const t0 = performance.now();
      const exam = generateExam(seed);
      const bytes = rawDocx(exam.blocks);
      const t1 = performance.now();
      results.push(run(exam, bytes));
      build += t1 - t0;
      parse += performance.now() - t1;
    }
    const failed = results.filter((r) => r.problems.length > 0);
    if (process.env.LAYOUT_SEED) console.log(dump(results[0]!));
    else {
      console.log(table(results));
      const totals = PROPERTIES.map(
        (p) => `${p} ${results.filter((r) => r.problems.some((x) => x.property === p)).length}`,
      );
      console.log(
        `\n${results.length} documents (${results.reduce((n, r) => n + r.exam.truth.length, 0)} questions): ${failed.length} fail (${totals.join(', ')}); ` +
          `generate+zip ${(build / 1000).toFixed(1)} s, parse ${(parse / 1000).toFixed(1)} s`,
      );
    }
    // LAYOUT_FAILURES=all lists every failing seed, not only the first 25
    const shown = process.env.LAYOUT_FAILURES === 'all' ? failed.length : 25;
    const message = `${failed.length} of ${results.length} generated documents fail (LAYOUT_SEED=<seed> dumps one):\n${failed
      .slice(0, shown)
      .map(describeFailure)
      .join('\n')}`;
    // every seeded document parses to what the generator wrote, or says it could not (a warning per unread key)
    expect(failed.length, message).to.equal(0);
  });
});
