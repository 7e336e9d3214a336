// One scoring function per key kind. Each returns the raw credit on the rule's scale (units) and
// whether the answer is fully right, or BLANK when nothing was answered.
import { labelKey, type Key, type Rule } from './keys.js';
import { matchesAny } from './text.js';
import type { AnswerInput } from './types.js';
import { clamp, mulDiv } from './units.js';

export type Scored = { raw: number; correct: boolean } | 'BLANK';

// THPT 2025 true/false group: 1, 2, 3, 4 statements right give 0.1, 0.25, 0.5, 1.0 of the points.
export const LADDER = [0, 1000, 2500, 5000, 10_000] as const;
const LADDER_DEN = 10_000;

/** Credit minus penalties, never below the rule's minScore nor above its maximum. */
const bounded = (rule: Rule, credit: number, penalties: number) =>
  clamp(credit - rule.penalty * penalties, rule.minScore, rule.ruleMax);

function scoreChoice(key: Extract<Key, { kind: 'choice' }>, answer: AnswerInput, rule: Rule): Scored {
  const selected = new Set(answer.selectedOptionIds);
  if (selected.size === 0) return 'BLANK';
  const hits = [...selected].filter((id) => key.correct.has(id)).length;
  const misses = selected.size - hits;
  const correct = misses === 0 && hits === key.correct.size;
  // A ladder rule on a choice question has no statements to count: it grades like EXACT.
  if (rule.mode !== 'PARTIAL') return { raw: correct ? rule.ruleMax : 0, correct };
  return { raw: bounded(rule, mulDiv(rule.ruleMax, hits, key.correct.size), misses), correct };
}

function scoreStatements(key: Extract<Key, { kind: 'statements' }>, answer: AnswerInput, rule: Rule): Scored {
  const given = answer.statementAnswers.filter((s) => s.value !== null && key.correct.has(labelKey(s.label)));
  if (given.length === 0) return 'BLANK';
  const n = key.correct.size;
  const right = given.filter((s) => key.correct.get(labelKey(s.label)) === s.value).length;
  const correct = right === n;
  if (rule.mode === 'EXACT') return { raw: correct ? rule.ruleMax : 0, correct };
  if (rule.mode === 'PARTIAL')
    return { raw: bounded(rule, mulDiv(rule.ruleMax, right, n), given.length - right), correct };
  // The ladder is defined for four statements; another count earns its proportional share.
  const raw = n === 4 ? mulDiv(rule.ruleMax, LADDER[right]!, LADDER_DEN) : mulDiv(rule.ruleMax, right, n);
  return { raw, correct };
}

function scoreText(key: Extract<Key, { kind: 'text' }>, answer: AnswerInput, rule: Rule): Scored {
  if (answer.textAnswer === null || answer.textAnswer.trim() === '') return 'BLANK';
  const correct = matchesAny(answer.textAnswer, key.accepted, key.tolerance);
  return { raw: correct ? rule.ruleMax : 0, correct };
}

export function scoreWith(key: Key, answer: AnswerInput, rule: Rule): Scored | 'UNGRADED' {
  switch (key.kind) {
    case 'choice':
      return scoreChoice(key, answer, rule);
    case 'statements':
      return scoreStatements(key, answer, rule);
    case 'text':
      return scoreText(key, answer, rule);
    default:
      return 'UNGRADED';
  }
}
