import { parseDocx } from '../../../src/parser/index.js';
import { makeDocx } from './build-docx.js';
import type { CorpusDoc } from './corpus.js';

export interface Score {
  convention: string;
  truth: number;
  found: number;
  matched: number;
  f1: number;
  answers: number;
  types: number;
  /** questions whose truth names a group, and how many of them landed in it */
  groupTruth: number;
  grouped: number;
}

interface Got {
  part: string | null;
  number: number;
  correct_answer: unknown;
  type: string;
  group_id: string | null;
}

export async function scoreDoc(doc: CorpusDoc): Promise<Score & { misses: string[] }> {
  const out = parseDocx(await makeDocx(doc.blocks, { columns: doc.columns }));
  const got = out.questions as unknown as Got[];
  const titles = new Map(out.groups.map((g) => [g.group_id as string, g.title as string]));
  let groupTruth = 0;
  let grouped = 0;
  const misses: string[] = [];
  let matched = 0;
  let answers = 0;
  let types = 0;
  for (const t of doc.truth) {
    const g = got.find((q) => q.number === t.number && q.part === t.part);
    if (!g) {
      misses.push(`missing ${t.part ?? ''}/${t.number}`);
      continue;
    }
    matched++;
    if (JSON.stringify(g.correct_answer) === JSON.stringify(t.answer)) answers++;
    else
      misses.push(
        `${t.part ?? ''}/${t.number} answer ${JSON.stringify(g.correct_answer)} ≠ ${JSON.stringify(t.answer)}`,
      );
    if (g.type === t.type) types++;
    else misses.push(`${t.part ?? ''}/${t.number} type ${g.type} ≠ ${t.type}`);
    if (t.group === undefined) continue;
    groupTruth++;
    const title = titles.get(g.group_id ?? '') ?? '';
    if (title.startsWith(t.group)) grouped++;
    else misses.push(`${t.part ?? ''}/${t.number} group "${title}" ≠ "${t.group}…"`);
  }
  const precision = got.length ? matched / got.length : 0;
  const recall = matched / doc.truth.length;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return {
    convention: doc.convention,
    truth: doc.truth.length,
    found: got.length,
    matched,
    f1,
    answers,
    types,
    groupTruth,
    grouped,
    misses,
  };
}

export function formatScores(scores: Score[]): string {
  const pct = (a: number, b: number): string => `${((100 * a) / Math.max(1, b)).toFixed(1)}%`;
  const groups = (s: Score): string => (s.groupTruth ? `  groups ${pct(s.grouped, s.groupTruth)}` : '');
  const lines = scores.map(
    (s) =>
      `${s.convention.padEnd(58)} ${String(s.truth).padStart(4)}  F1 ${s.f1.toFixed(3)}  answers ${pct(s.answers, s.matched)}  types ${pct(s.types, s.matched)}${groups(s)}`,
  );
  const t = scores.reduce(
    (a, s) => ({
      truth: a.truth + s.truth,
      found: a.found + s.found,
      matched: a.matched + s.matched,
      answers: a.answers + s.answers,
      types: a.types + s.types,
    }),
    { truth: 0, found: 0, matched: 0, answers: 0, types: 0 },
  );
  const p = t.matched / t.found;
  const r = t.matched / t.truth;
  lines.push(
    `${'ALL'.padEnd(58)} ${String(t.truth).padStart(4)}  F1 ${((2 * p * r) / (p + r)).toFixed(3)}  answers ${pct(t.answers, t.matched)}  types ${pct(t.types, t.matched)}`,
  );
  return lines.join('\n');
}
