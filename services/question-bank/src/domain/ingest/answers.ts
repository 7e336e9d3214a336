// Pure: options, true/false sub-items, answer keys and scoring rules of one imported question.
import type { CoreType, OptionRow, SubItemRow } from '../../store/question-models.js';
import { foldText } from '../search-text.js';
import { childId } from './ids.js';
import type { CorrectAnswer, IngestQuestion, IngestWarning } from './types.js';

const SUB_LABELS = ['A', 'B', 'C', 'D'] as const;
const TRUE_WORDS = new Set(['dung', 'd', 'true', 't', '1', 'yes', 'y', 'x']);
const FALSE_WORDS = new Set(['sai', 's', 'false', 'f', '0', 'no', 'n']);

/** `Đúng`, `Đ`, `true`, `x` → true; `Sai`, `S`, `false` → false; anything else → null. */
export function booleanWord(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return null;
  const w = foldText(value.trim());
  if (TRUE_WORDS.has(w)) return true;
  return FALSE_WORDS.has(w) ? false : null;
}

/** The compact form `a:Đúng;b:Sai;c:Đúng;d:Sai` (also `,` between items, `=` or `)` after the label). */
export function parseCompactBooleans(text: string): Map<string, boolean> | null {
  const out = new Map<string, boolean>();
  const parts = text.split(/[;,\n]/).filter((p) => p.trim() !== '');
  for (const part of parts) {
    // Trimmed first: one pass, no quantifiers that trade characters (linear on any input).
    const m = /^([a-hA-H])\s*[:=)](.*)$/.exec(part.trim());
    const value = m ? booleanWord(m[2]) : null;
    if (!m || value === null) return null;
    out.set(m[1]!.toUpperCase(), value);
  }
  return out.size > 0 ? out : null;
}

/** The boolean per upper-case label from an object map or the compact string; null when neither. */
export function booleanMap(answer: CorrectAnswer | undefined): Map<string, boolean> | null {
  if (typeof answer === 'string') return parseCompactBooleans(answer);
  if (!answer || Array.isArray(answer)) return null;
  const out = new Map<string, boolean>();
  for (const [label, v] of Object.entries(answer)) {
    const b = booleanWord(v);
    if (b !== null && /^[a-hA-H]$/.test(label)) out.set(label.toUpperCase(), b);
  }
  return out.size > 0 ? out : null;
}

/** `B`, `A, C`, `AC`, `["A","C"]` → upper-case labels. */
export function answerLabels(answer: CorrectAnswer | undefined): string[] {
  const texts = Array.isArray(answer) ? answer : typeof answer === 'string' ? [answer] : [];
  const labels = texts.flatMap((t) => {
    const tokens = t
      .toUpperCase()
      .split(/[^A-Z]+/)
      .filter(Boolean);
    return tokens.length === 1 && /^[A-H]{2,8}$/.test(tokens[0]!) ? [...tokens[0]!] : tokens;
  });
  return [...new Set(labels)];
}

export interface AnswerPart {
  options: OptionRow[];
  subItems: SubItemRow[] | null;
  answerKeys: Record<string, unknown> | null;
  warnings: IngestWarning[];
  /** Statements past D (the core model has four); kept in source metadata. */
  extraSubItems: Array<{ label: string; content: string; correctBoolean: boolean | null }>;
}

const warn = (q: IngestQuestion, code: string, message: string): IngestWarning => ({
  code,
  message,
  question_id: q.id,
});

function trueFalseOptions(q: IngestQuestion): IngestQuestion['options'] {
  if ((q.options ?? []).length > 0) return q.options;
  const truth = booleanWord(typeof q.correct_answer === 'string' ? q.correct_answer : null);
  return [
    { label: 'A', content: 'Đúng', is_correct: truth === true },
    { label: 'B', content: 'Sai', is_correct: truth === false },
  ];
}

function choicePart(q: IngestQuestion, type: CoreType, versionId: string): AnswerPart {
  const source = type === 'TRUE_FALSE' ? trueFalseOptions(q)! : (q.options ?? []);
  const labels = new Set(answerLabels(q.correct_answer));
  const options: OptionRow[] = source.map((o, i) => ({
    id: childId(versionId, 'option', i),
    label: o.label.toUpperCase(),
    content: o.content,
    isCorrect: o.is_correct === true || labels.has(o.label.toUpperCase()),
  }));
  const warnings: IngestWarning[] = [];
  const unknown = [...labels].filter((l) => !options.some((o) => o.label === l));
  if (unknown.length > 0 && type !== 'TRUE_FALSE')
    warnings.push(warn(q, 'INGEST_ANSWER_UNKNOWN_LABEL', `answer ${unknown.join(', ')} names no option`));
  const correct = options.filter((o) => o.isCorrect);
  const answerKeys =
    correct.length > 0
      ? { correctOptionIds: correct.map((o) => o.id), correctLabels: correct.map((o) => o.label) }
      : null;
  return { options, subItems: null, answerKeys, warnings, extraSubItems: [] };
}

function statements(q: IngestQuestion, map: Map<string, boolean> | null) {
  const given = (q.sub_items ?? []).map((s) => ({
    label: s.label.toUpperCase(),
    content: s.content,
    b: s.correct_boolean,
  }));
  const rows =
    given.length > 0 ? given : [...(map?.keys() ?? [])].sort().map((label) => ({ label, content: '', b: null }));
  return rows.map((s) => ({
    label: s.label,
    content: s.content,
    correctBoolean: typeof s.b === 'boolean' ? s.b : (map?.get(s.label) ?? null),
  }));
}

function groupPart(q: IngestQuestion): AnswerPart {
  const all = statements(q, booleanMap(q.correct_answer));
  const isCore = (l: string) => (SUB_LABELS as readonly string[]).includes(l);
  const subItems = all.filter((s) => isCore(s.label)) as SubItemRow[];
  const warnings: IngestWarning[] = [];
  if (subItems.some((s) => s.correctBoolean === null))
    warnings.push(warn(q, 'INGEST_SUB_ITEM_ANSWER_MISSING', 'a statement has no true/false answer (stored as null)'));
  const extraSubItems = all.filter((s) => !isCore(s.label));
  if (extraSubItems.length > 0)
    warnings.push(warn(q, 'INGEST_SUB_ITEMS_BEYOND_D', 'statements past D are kept in sourceMetadataJson only'));
  return { options: [], subItems, answerKeys: null, warnings, extraSubItems };
}

const sameNumber = (a: string, b: string) => a.replace(',', '.') === b.replace(',', '.');

function shortPart(q: IngestQuestion): AnswerPart {
  const texts = (Array.isArray(q.correct_answer) ? q.correct_answer : [q.correct_answer])
    .filter((t): t is string => typeof t === 'string')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const accepted = [...new Set(texts)];
  const numeric = q.correct_answer_numeric;
  if (typeof numeric === 'number' && !accepted.some((t) => sameNumber(t, String(numeric))))
    accepted.push(String(numeric));
  const answerKeys = accepted.length > 0 ? { acceptedAnswers: accepted } : null;
  return { options: [], subItems: null, answerKeys, warnings: [], extraSubItems: [] };
}

const CHOICE = new Set<CoreType>(['SINGLE_CHOICE', 'MULTIPLE_CHOICE', 'TRUE_FALSE']);

export function answerPart(q: IngestQuestion, type: CoreType, versionId: string): AnswerPart {
  if (CHOICE.has(type)) return choicePart(q, type, versionId);
  if (type === 'TRUE_FALSE_GROUP') return groupPart(q);
  if (type === 'SHORT_ANSWER' || type === 'SHORT_NUMERIC_ANSWER') return shortPart(q);
  return { options: [], subItems: null, answerKeys: null, warnings: [], extraSubItems: [] };
}

/** `points` becomes `maxScore` (1 when absent); every true/false group uses the THPT ladder. */
export function scoringRuleOf(type: CoreType, points: number | null | undefined): Record<string, unknown> | null {
  const maxScore = typeof points === 'number' && points >= 0 ? points : 1;
  if (type === 'TRUE_FALSE_GROUP') return { mode: 'THPT_TRUE_FALSE_LADDER', maxScore };
  if (type === 'ESSAY' || type === 'PASSAGE_READING') return { mode: 'PARTIAL', maxScore };
  return { mode: 'EXACT', maxScore };
}
