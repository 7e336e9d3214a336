// Reading a question snapshot's answer key and scoring rule. Snapshots are another service's
// data: anything missing or odd yields the `none` key (the question is ungraded), never a throw.
import { toUnits } from './units.js';
import type { QuestionSnapshot } from './types.js';

type Json = Record<string, unknown>;

export type Mode = 'EXACT' | 'PARTIAL' | 'LADDER';

export type Key =
  | { kind: 'choice'; optionIds: Set<string>; correct: Set<string> }
  | { kind: 'statements'; correct: Map<string, boolean> }
  | { kind: 'text'; accepted: string[]; tolerance: number }
  | { kind: 'none' };

/** All amounts in units (ten-thousandths). `ruleMax` is the rule's own scale; `points` the exam's. */
export interface Rule {
  mode: Mode;
  points: number;
  ruleMax: number;
  penalty: number;
  minScore: number;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const objects = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
const nonNegative = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);
const finite = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

const TEXT_TYPES = new Set(['SHORT_ANSWER', 'SHORT_NUMERIC_ANSWER']);
const UNGRADED_TYPES = new Set(['ESSAY', 'PASSAGE_READING']);

export const labelKey = (label: string): string => label.trim().toUpperCase();

function correctOptions(q: QuestionSnapshot, options: Json[]): Set<string> {
  const keys = isObject(q.answerKeys) ? q.answerKeys : {};
  const ids = new Set(options.map((o) => o.id));
  const byId = strings(keys.correctOptionIds).filter((id) => ids.has(id));
  if (byId.length > 0) return new Set(byId);
  const flagged = options.filter((o) => o.isCorrect === true).map((o) => o.id as string);
  if (flagged.length > 0) return new Set(flagged);
  const labels = new Set(strings(keys.correctLabels).map(labelKey));
  return new Set(
    options.filter((o) => typeof o.label === 'string' && labels.has(labelKey(o.label))).map((o) => o.id as string),
  );
}

function statementKey(q: QuestionSnapshot): Key | null {
  const items = objects(q.subItems).filter((s) => typeof s.label === 'string' && typeof s.correctBoolean === 'boolean');
  if (items.length === 0) return null;
  return {
    kind: 'statements',
    correct: new Map(items.map((s) => [labelKey(s.label as string), s.correctBoolean as boolean])),
  };
}

function textKey(q: QuestionSnapshot): Key | null {
  const keys = isObject(q.answerKeys) ? q.answerKeys : {};
  const accepted = strings(keys.acceptedAnswers).filter((s) => s.trim() !== '');
  if (accepted.length === 0) return null;
  const rule = isObject(q.scoringRule) ? q.scoringRule : {};
  return { kind: 'text', accepted, tolerance: nonNegative(keys.tolerance) ?? nonNegative(rule.tolerance) ?? 0 };
}

function choiceKey(q: QuestionSnapshot): Key | null {
  const options = objects(q.options).filter((o) => typeof o.id === 'string');
  if (options.length === 0) return null;
  const correct = correctOptions(q, options);
  return correct.size === 0
    ? null
    : { kind: 'choice', optionIds: new Set(options.map((o) => o.id as string)), correct };
}

export function keyOf(q: QuestionSnapshot): Key {
  const type = typeof q.type === 'string' ? q.type : '';
  if (UNGRADED_TYPES.has(type)) return { kind: 'none' };
  if (TEXT_TYPES.has(type)) return textKey(q) ?? { kind: 'none' };
  return statementKey(q) ?? choiceKey(q) ?? textKey(q) ?? { kind: 'none' };
}

function modeOf(q: QuestionSnapshot, rule: Json): Mode {
  if (q.type === 'TRUE_FALSE_GROUP' || rule.mode === 'THPT_TRUE_FALSE_LADDER') return 'LADDER';
  return rule.mode === 'PARTIAL' ? 'PARTIAL' : 'EXACT';
}

/** The question's points: the exam's `score`, else the rule's `maxScore`, else 1. */
export function ruleOf(q: QuestionSnapshot): Rule {
  const rule = isObject(q.scoringRule) ? q.scoringRule : {};
  const ruleMaxRaw = nonNegative(rule.maxScore);
  const points = toUnits(nonNegative(q.score) ?? ruleMaxRaw ?? 1);
  const ruleMax = ruleMaxRaw !== null && ruleMaxRaw > 0 ? toUnits(ruleMaxRaw) : points;
  return {
    mode: modeOf(q, rule),
    points,
    ruleMax,
    penalty: toUnits(nonNegative(rule.incorrectPenalty) ?? 0),
    minScore: Math.min(toUnits(finite(rule.minScore) ?? 0), ruleMax),
  };
}
