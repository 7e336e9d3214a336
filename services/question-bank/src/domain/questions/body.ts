// Pure: how request fields become the stored question body (defaults, aliases, generated ids and
// labels, contentJson from content).
import type { FormulaRefRow, MediaRefRow, OptionRow, QuestionBody, SubItemRow } from '../../store/question-models.js';

export interface QuestionInput extends Record<string, unknown> {
  content?: string;
  contentJson?: unknown;
  explanation?: string | null;
  explanationJson?: unknown;
  answerKeys?: unknown;
  answerKeysJson?: unknown;
  scoringRule?: unknown;
  scoringRuleJson?: unknown;
  subItems?: SubItemRow[] | null;
  subItemsJson?: SubItemRow[] | null;
  options?: Array<Partial<OptionRow> & { content: string }>;
  mediaRefs?: Array<Partial<MediaRefRow>>;
  formulaRefs?: Array<Partial<FormulaRefRow>>;
  tags?: string[];
}

const LABELS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** A minimal rich document: one paragraph per line of `content`. */
export function contentJsonOf(content: string): unknown {
  const lines = content.split(/\r?\n/);
  return {
    type: 'doc',
    content: lines.map((line) => ({
      type: 'paragraph',
      ...(line ? { content: [{ type: 'text', text: line }] } : {}),
    })),
  };
}

export function normalizeOptions(options: QuestionInput['options'], newId: () => string): OptionRow[] {
  return (options ?? []).map((o, i) => ({
    id: o.id ?? newId(),
    label: o.label ?? LABELS[i] ?? String(i + 1),
    content: o.content,
    ...(o.contentJson === undefined ? {} : { contentJson: o.contentJson }),
    isCorrect: o.isCorrect === true,
  }));
}

function withIds<T extends { id?: string }>(items: T[] | undefined, newId: () => string): Array<T & { id: string }> {
  return (items ?? []).map((item) => ({ ...item, id: item.id ?? newId() }));
}

/** Tags keep their first spelling; the same tag twice (after trimming) is stored once. */
export function normalizeTags(tags: string[] | undefined): string[] {
  return [...new Set((tags ?? []).map((t) => t.trim()).filter((t) => t.length > 0))];
}

const pick = (a: unknown, b: unknown): unknown => (a !== undefined ? a : b);

/** The aliases folded into the canonical names (`answerKeysJson` -> `answerKeys`, ...). */
export function canonical(input: QuestionInput): QuestionInput {
  const { answerKeysJson, scoringRuleJson, subItemsJson, ...rest } = input;
  const out: QuestionInput = { ...rest };
  const answerKeys = pick(input.answerKeys, answerKeysJson);
  const scoringRule = pick(input.scoringRule, scoringRuleJson);
  const subItems = pick(input.subItems, subItemsJson) as SubItemRow[] | null | undefined;
  if (answerKeys !== undefined) out.answerKeys = answerKeys;
  if (scoringRule !== undefined) out.scoringRule = scoringRule;
  if (subItems !== undefined) out.subItems = subItems;
  return out;
}

const sortSubItems = (items: SubItemRow[] | null | undefined) =>
  items ? [...items].sort((a, b) => a.label.localeCompare(b.label)) : null;

/** The body of a new question from a canonical input. */
export function newBody(input: QuestionInput, newId: () => string): QuestionBody {
  const content = input.content ?? '';
  return {
    content,
    contentJson: input.contentJson ?? contentJsonOf(content),
    explanation: input.explanation || null,
    explanationJson: input.explanationJson ?? null,
    answerKeys: input.answerKeys ?? null,
    scoringRule: input.scoringRule ?? null,
    subItems: sortSubItems(input.subItems),
    options: normalizeOptions(input.options, newId),
    mediaRefs: withIds(input.mediaRefs, newId) as MediaRefRow[],
    formulaRefs: withIds(input.formulaRefs, newId) as FormulaRefRow[],
  };
}

const when = <T, R>(value: T | undefined, fn: (v: T) => R): R | undefined =>
  value === undefined ? undefined : fn(value);

function replacedArrays(input: QuestionInput, newId: () => string): Partial<QuestionBody> {
  return {
    subItems: when(input.subItems, sortSubItems),
    options: when(input.options, (o) => normalizeOptions(o, newId)),
    mediaRefs: when(input.mediaRefs, (m) => withIds(m, newId) as MediaRefRow[]),
    formulaRefs: when(input.formulaRefs, (f) => withIds(f, newId) as FormulaRefRow[]),
  };
}

/**
 * The body after a PATCH: omitted fields keep their values, supplied arrays replace fully, and
 * `contentJson` is regenerated from a new `content` unless the PATCH gives one.
 */
export function patchedBody(current: QuestionBody, input: QuestionInput, newId: () => string): QuestionBody {
  const next: QuestionBody = { ...current };
  if (input.content !== undefined) {
    next.content = input.content;
    next.contentJson = input.contentJson ?? contentJsonOf(input.content);
  } else if (input.contentJson !== undefined) next.contentJson = input.contentJson;
  if (input.explanation !== undefined) next.explanation = input.explanation || null;
  const replaced: Partial<QuestionBody> = {
    explanationJson: input.explanationJson,
    answerKeys: input.answerKeys,
    scoringRule: input.scoringRule,
    ...replacedArrays(input, newId),
  };
  for (const [k, v] of Object.entries(replaced))
    if (v !== undefined) (next as unknown as Record<string, unknown>)[k] = v;
  return next;
}
