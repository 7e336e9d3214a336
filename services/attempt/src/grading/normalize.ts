// The answer body. Fields come nested (`answer { selectedOptionIds, statementAnswers, textAnswer }`)
// or at the top level; a field present in `answer` wins over the same field at the top level.
// Accepted variants:
// - selectedOptionIds: an array of option ids, or one id as a string; `selectedOptionId` (singular)
//   too. Duplicates are dropped, the first order kept.
// - statementAnswers: elements `{ label, value }` (canonical, label `A`..`D` as the snapshot's
//   subItems carry it, any case), with `key` | `statementId` | `id` for the label and `answer` |
//   `selected` | `isTrue` for the value; or a map `{ "A": true, "B": false }`; or a positional
//   array `[true, false, null, true]` (A, B, C, D). A value is true, false, "true", "false", or
//   null (statement not answered). Stored and returned as `{ label, value }`, label upper-case.
// - textAnswer: a string (kept as typed; the grader trims), a finite number (its decimal text), or null.
// Absent or null fields mean "not answered" (a save with none of them clears the answer).
import { labelKey } from './keys.js';
import {
  AnswerFormatError,
  type AnswerInput,
  type GradableAnswer,
  type QuestionSnapshot,
  type StatementAnswer,
} from './types.js';

type Json = Record<string, unknown>;
type Issue = { path: string; message: string };

export const ANSWER_LIMITS = { options: 26, statements: 26, idLength: 128, labelLength: 20, textLength: 1000 };

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const LABEL_FIELDS = ['label', 'key', 'statementId', 'id'] as const;
const VALUE_FIELDS = ['value', 'answer', 'selected', 'isTrue'] as const;
const POSITIONAL = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];

function optionIds(v: unknown, path: string, issues: Issue[]): string[] {
  if (v === undefined || v === null) return [];
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list)) return (issues.push({ path, message: `${path} must be an array of option ids` }), []);
  if (list.length > ANSWER_LIMITS.options)
    issues.push({ path, message: `${path} has more than ${ANSWER_LIMITS.options} ids` });
  const ok = (id: unknown): id is string =>
    typeof id === 'string' && id.length > 0 && id.length <= ANSWER_LIMITS.idLength;
  list.forEach(
    (id, i) => ok(id) || issues.push({ path: `${path}.${i}`, message: `${path}.${i} must be an option id` }),
  );
  return [...new Set(list.filter(ok))];
}

function boolValue(v: unknown): boolean | null | undefined {
  if (typeof v === 'boolean' || v === null) return v;
  if (typeof v !== 'string') return undefined;
  const t = v.trim().toLowerCase();
  return t === 'true' ? true : t === 'false' ? false : undefined;
}

const firstOf = (o: Json, fields: readonly string[]): unknown => o[fields.find((f) => o[f] !== undefined) ?? ''];

function statementOf(item: unknown, position: number): StatementAnswer | string {
  if (!isObject(item)) {
    const value = boolValue(item);
    const label = POSITIONAL[position];
    return value === undefined || !label ? 'must be { label, value } or a boolean' : { label, value };
  }
  const label = firstOf(item, LABEL_FIELDS);
  const value = boolValue(firstOf(item, VALUE_FIELDS) ?? null);
  if (typeof label !== 'string' || label.trim() === '' || label.length > ANSWER_LIMITS.labelLength)
    return 'needs a statement label (A to D)';
  return value === undefined ? 'value must be true, false or null' : { label: labelKey(label), value };
}

function statements(v: unknown, path: string, issues: Issue[]): StatementAnswer[] {
  if (v === undefined || v === null) return [];
  const items = isObject(v) ? Object.entries(v).map(([label, value]) => ({ label, value })) : v;
  if (!Array.isArray(items)) return (issues.push({ path, message: `${path} must be an array or a map` }), []);
  if (items.length > ANSWER_LIMITS.statements)
    issues.push({ path, message: `${path} has more than ${ANSWER_LIMITS.statements} statements` });
  const out = new Map<string, StatementAnswer>();
  items.forEach((item, i) => {
    const s = statementOf(item, i);
    if (typeof s === 'string') issues.push({ path: `${path}.${i}`, message: `${path}.${i} ${s}` });
    else if (out.has(s.label)) issues.push({ path: `${path}.${i}`, message: `statement ${s.label} is answered twice` });
    else out.set(s.label, s);
  });
  return [...out.values()];
}

function text(v: unknown, path: string, issues: Issue[]): string | null {
  if (v === undefined || v === null) return null;
  const s = typeof v === 'number' && Number.isFinite(v) ? String(v) : v;
  if (typeof s !== 'string') return (issues.push({ path, message: `${path} must be a string` }), null);
  if ([...s].length > ANSWER_LIMITS.textLength)
    return (issues.push({ path, message: `${path} is longer than ${ANSWER_LIMITS.textLength} characters` }), null);
  return s;
}

function parse(body: unknown, issues: Issue[]): AnswerInput {
  const top = isObject(body) ? body : {};
  if (!isObject(body)) issues.push({ path: '', message: 'the body must be an object' });
  const nested = isObject(top.answer) ? top.answer : {};
  if (top.answer !== undefined && top.answer !== null && !isObject(top.answer))
    issues.push({ path: 'answer', message: 'answer must be an object' });
  const pick = (field: string): [unknown, string] =>
    nested[field] !== undefined ? [nested[field], `answer.${field}`] : [top[field], field];
  const [ids, idsPath] = pick('selectedOptionIds');
  const [one, onePath] = pick('selectedOptionId');
  const out: AnswerInput = {
    selectedOptionIds: ids !== undefined ? optionIds(ids, idsPath, issues) : optionIds(one, onePath, issues),
    statementAnswers: statements(...pick('statementAnswers'), issues),
    textAnswer: text(...pick('textAnswer'), issues),
  };
  if (typeof top.questionId === 'string') out.questionId = top.questionId;
  return out;
}

/** The normalized answer of a save body; AnswerFormatError (400) naming every malformed field. */
export function normalizeAnswer(body: unknown): AnswerInput {
  const issues: Issue[] = [];
  const answer = parse(body, issues);
  if (issues.length > 0) throw new AnswerFormatError(issues);
  return answer;
}

/** The grader's view of a stored answer: malformed members dropped, never a throw. */
export function coerceAnswer(answer: GradableAnswer | null): AnswerInput {
  return parse(answer ?? {}, []);
}

/** Save-time check: every selected option and answered statement exists in the question. */
export function checkAnswerFits(question: QuestionSnapshot, answer: AnswerInput): void {
  const options = new Set(Array.isArray(question.options) ? question.options.map((o: Json) => o?.id) : []);
  const labels = new Set(
    Array.isArray(question.subItems)
      ? question.subItems.map((s: Json) => (typeof s?.label === 'string' ? labelKey(s.label) : null))
      : [],
  );
  const issues: Issue[] = [];
  answer.selectedOptionIds.forEach((id, i) => {
    if (!options.has(id))
      issues.push({ path: `selectedOptionIds.${i}`, message: `option ${id} is not in this question` });
  });
  answer.statementAnswers.forEach((s, i) => {
    if (!labels.has(s.label))
      issues.push({ path: `statementAnswers.${i}`, message: `statement ${s.label} is not in this question` });
  });
  if (issues.length > 0) throw new AnswerFormatError(issues);
}
