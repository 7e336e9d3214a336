// Ground truth for the real exam files (../shared/corpus-real-docx*, evaluation only): the answer keys in
// test/parser/real-truth/corpus-*.json name each question by a fingerprint of its stem, never by its text.
import { createHash } from 'node:crypto';

/** a leading question label: `Câu 12:`, `Question 3.`, `Q12)`, `12.`, `[4]`, `(4)`, `Bài 2` */
const LABEL =
  /^\s*(?:(?:câu\s*hỏi|câu|cau|question|bài|item|q)\s*(?:\.\s*)?\d+[a-z]?(?:\s*[:.)\-–])?|\[\s*\d+\s*\]|\(\s*\d+\s*\)|\d+\s*[.):](?!\d))\s*/u;
/** source or level tags before the stem: `[HIMA]`, `[NB]`, `[2D1-3]` */
const TAGS = /^(?:\s*\[[^[\]]{1,20}\])+/u;
/** equations (`$…$`, `$$…$$`, `\[…\]`, `\(…\)`: the parser's LaTeX or a teacher's) and placeholders
 * (`[[media:N]]`) are not words of the stem */
const NOT_WORDS = /\$\$[\s\S]*?\$\$|\$[^$]*\$|\\\[[\s\S]*?\\\]|\\\([\s\S]*?\\\)|\[\[[^[\]]*\]\]/gu;
const WORD = /[\p{L}\p{N}]+/gu;

/** The first 6 words of the stem (label, leading tags, equations and pictures removed), sha1 hex, first 10 characters. */
export function fingerprint(stem: string): string {
  const text = stem.normalize('NFC').toLowerCase().replace(LABEL, '').replace(TAGS, '').replace(NOT_WORDS, ' ');
  const words = (text.match(WORD) ?? []).slice(0, 6).join(' ');
  return createHash('sha1').update(words).digest('hex').slice(0, 10);
}

/** a letter, several letters, true/false per statement, a short answer's text, or none stated */
export type TruthAnswer = string | string[] | Record<string, boolean> | null;
export interface TruthQuestion {
  fp: string;
  answer: TruthAnswer;
}
export interface TruthFile {
  /** does the document state answers at all */
  keyed: boolean;
  questions: TruthQuestion[];
}
export type TruthSet = Record<string, TruthFile>;

/** the part of the parser's output the scoring reads */
export interface ParsedQuestion {
  id: string;
  content: string;
  correct_answer: unknown;
  answer_confidence?: number | null;
}
export interface ParsedOutput {
  questions: ParsedQuestion[];
  warnings: { code: string; question_id?: string }[];
}

export interface RealScore {
  truth: number;
  found: number;
  matched: number;
  /** truth questions with an answer, and those answered right (on a matched question) */
  keyed: number;
  right: number;
  /** true/false statements of the truth, and those given the right value */
  statements: number;
  statementsRight: number;
  /** answers the parser returned on matched questions, and those equal to the truth (a key where the truth has none is wrong) */
  returned: number;
  returnedRight: number;
  /** answers at answer_confidence >= 0.9 and those right; null when the output has no answer_confidence */
  confident: number | null;
  confidentRight: number | null;
  /** matched keyed questions left without an answer, and those of them warned DOCX_NATIVE_ANSWER_MISSING */
  unanswered: number;
  unansweredWarned: number;
  /** answers returned in a document that states none (truth keyed: false) */
  invented: number;
}

const LETTER = /^[A-Z]$/;
const asSet = (v: unknown): string[] | null =>
  Array.isArray(v) ? [...new Set(v.map(String))].sort() : typeof v === 'string' && LETTER.test(v) ? [v] : null;

/** letters exactly, several letters as sets, true/false per statement (all must agree), text trimmed and lower-cased */
export function sameAnswer(truth: TruthAnswer, got: unknown): boolean {
  if (truth === null || got === null || got === undefined) return false;
  if (Array.isArray(truth) || Array.isArray(got)) {
    const a = asSet(truth);
    const b = asSet(got);
    return a !== null && b !== null && a.join() === b.join();
  }
  if (typeof truth === 'object') {
    if (typeof got !== 'object') return false;
    const g = got as Record<string, unknown>;
    return Object.entries(truth).every(([k, v]) => g[k] === v);
  }
  if (LETTER.test(truth)) return got === truth;
  return String(got).trim().toLowerCase() === truth.trim().toLowerCase();
}

/** Pairs each parser question with a truth question of the same fingerprint (its content, or its content without the
 * first word: a stray label word), each truth question used once, in document order. Returns truth index per question. */
export function matchQuestions(truth: TruthQuestion[], got: ParsedQuestion[]): (number | null)[] {
  const used = new Set<number>();
  let last = -1;
  return got.map((q) => {
    const content = String(q.content ?? '');
    const fps = [fingerprint(content), fingerprint(content.replace(/^\s*[\p{L}\p{N}]+/u, ''))];
    for (const fp of fps) {
      const free = truth.map((t, i) => i).filter((i) => !used.has(i) && truth[i]!.fp === fp);
      const i = free.find((j) => j > last) ?? free[0];
      if (i !== undefined) {
        used.add(i);
        last = i;
        return i;
      }
    }
    return null;
  });
}

/** Scores one parsed document against its truth; `out` null when the parser refused the file (no question found). */
export function scoreFile(truth: TruthFile, out: ParsedOutput | null): RealScore {
  const got = out?.questions ?? [];
  const missing = new Set(
    (out?.warnings ?? []).filter((w) => w.code === 'DOCX_NATIVE_ANSWER_MISSING').map((w) => w.question_id),
  );
  const hasConfidence = got.some((q) => typeof q.answer_confidence === 'number');
  const s: RealScore = {
    truth: truth.questions.length,
    found: got.length,
    matched: 0,
    keyed: truth.questions.filter((t) => t.answer !== null).length,
    right: 0,
    statements: 0,
    statementsRight: 0,
    returned: 0,
    returnedRight: 0,
    confident: hasConfidence ? 0 : null,
    confidentRight: hasConfidence ? 0 : null,
    unanswered: 0,
    unansweredWarned: 0,
    invented: truth.keyed ? 0 : got.filter((q) => q.correct_answer !== null && q.correct_answer !== undefined).length,
  };
  for (const t of truth.questions)
    if (t.answer !== null && typeof t.answer === 'object' && !Array.isArray(t.answer))
      s.statements += Object.keys(t.answer).length;
  matchQuestions(truth.questions, got).forEach((i, k) => {
    if (i === null) return;
    const t = truth.questions[i]!;
    const q = got[k]!;
    const answer = q.correct_answer ?? null;
    const right = sameAnswer(t.answer, answer);
    s.matched++;
    if (right) s.right++;
    if (
      t.answer !== null &&
      typeof t.answer === 'object' &&
      !Array.isArray(t.answer) &&
      answer &&
      typeof answer === 'object'
    )
      for (const [key, v] of Object.entries(t.answer))
        if ((answer as Record<string, unknown>)[key] === v) s.statementsRight++;
    if (answer !== null) {
      s.returned++;
      if (right) s.returnedRight++;
      if (s.confident !== null && typeof q.answer_confidence === 'number' && q.answer_confidence >= 0.9) {
        s.confident++;
        if (right) s.confidentRight!++;
      }
    } else if (t.answer !== null) {
      s.unanswered++;
      if (missing.has(q.id)) s.unansweredWarned++;
    }
  });
  return s;
}

/** The sum of several scores (a set's micro figures); confidence stays null only when every score has none. */
export function sumScores(scores: RealScore[]): RealScore {
  const total = { ...(scores[0] ?? scoreFile({ keyed: true, questions: [] }, null)) };
  for (const k of Object.keys(total) as (keyof RealScore)[]) {
    const values = scores.map((s) => s[k]).filter((v): v is number => v !== null);
    (total as Record<string, number | null>)[k] = values.length ? values.reduce((a, b) => a + b, 0) : null;
  }
  return total;
}

export const ratio = (n: number, d: number): number | null => (d ? n / d : null);
/** questions F1 of a score (0 when nothing matched) */
export function f1(s: RealScore): number {
  const p = ratio(s.matched, s.found) ?? 0;
  const r = ratio(s.matched, s.truth) ?? 0;
  return p + r ? (2 * p * r) / (p + r) : 0;
}
