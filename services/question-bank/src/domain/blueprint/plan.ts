// Pure: what each blueprint rule asks the store for, and how the rules share out the bank.
import { TAXONOMY_FIELDS } from '../../store/question-models.js';
import { scopeFilter, type ReadScope } from '../questions/scope.js';
import { pickSeeded } from './shuffle.js';

/** A rule's named members: a count and the filters that narrow it (the route's body shape builds on it). */
// A type, not an interface: the body's type (an intersection with it) must fit BlueprintRule's index signature.
export type BlueprintRuleFields = {
  count: number;
  subjectId?: string;
  gradeLevel?: number;
  customTypeId?: string;
  type?: string;
  types?: string[];
  difficulty?: string;
  difficulties?: string[];
  requireGrouped?: boolean;
  excludeQuestionIds?: string[];
};

/** A rule: its named members and the taxonomy id filters (TAXONOMY_FIELDS). */
export interface BlueprintRule extends BlueprintRuleFields {
  [taxonomy: string]: unknown;
}

export interface BlueprintRequest {
  rules: BlueprintRule[];
  excludeQuestionIds?: string[];
  randomSeed?: string | number;
  requireComplete?: boolean;
}

export interface RuleOutcome {
  index: number;
  requested: number;
  selected: number;
  shortfall: number;
  questionIds: string[];
}

const EQUAL = ['subjectId', 'gradeLevel', 'customTypeId', ...TAXONOMY_FIELDS] as const;

const oneOrMany = (one: unknown, many: unknown[] | undefined): unknown => (many !== undefined ? { $in: many } : one);

/** The rule's MongoDB filter: scope, PUBLISHED only, its filters, and nothing in `excluded`. */
export function ruleFilter(scope: ReadScope, rule: BlueprintRule, excluded: ReadonlySet<string>) {
  const filter: Record<string, unknown> = { ...scopeFilter(scope), status: 'PUBLISHED' };
  for (const f of EQUAL) if (rule[f] !== undefined) filter[f] = rule[f];
  const type = oneOrMany(rule.type, rule.types);
  if (type !== undefined) filter.type = type;
  const difficulty = oneOrMany(rule.difficulty, rule.difficulties);
  if (difficulty !== undefined) filter.difficulty = difficulty;
  // true: only questions of a group (passage); false: only standalone ones; absent: either.
  if (rule.requireGrouped !== undefined) filter.groupId = rule.requireGrouped ? { $ne: null } : null;
  if (excluded.size > 0) filter._id = { $nin: [...excluded] };
  return filter;
}

/**
 * How many candidate ids the store must return for a rule: newest-first needs only the first
 * `count` (the exclusions are in the filter); a seeded pick ranks every candidate, so all.
 */
export const candidateLimit = (rule: BlueprintRule, seed: string | null): number | null =>
  seed === null ? rule.count : null;

/** From a rule's candidates (newest first, exclusions already applied), the ids it takes. */
export function pickFrom(candidates: readonly string[], count: number, seed: string | null): string[] {
  return seed === null ? candidates.slice(0, count) : pickSeeded(seed, candidates, count);
}

export type CandidateSource = (filter: Record<string, unknown>, limit: number | null) => Promise<string[]>;

/**
 * Evaluates the rules in order: each one sees the request's and its own exclusions plus every
 * question an earlier rule took, so no question is picked twice (earlier rules win).
 */
export async function selectIds(
  scope: ReadScope,
  req: BlueprintRequest,
  seed: string | null,
  candidates: CandidateSource,
): Promise<RuleOutcome[]> {
  const taken = new Set<string>();
  const outcomes: RuleOutcome[] = [];
  for (const [index, rule] of req.rules.entries()) {
    const excluded = new Set([...(req.excludeQuestionIds ?? []), ...(rule.excludeQuestionIds ?? []), ...taken]);
    const found = await candidates(ruleFilter(scope, rule, excluded), candidateLimit(rule, seed));
    // Defensive: a store that ignored $nin still never yields a duplicate.
    const ids = pickFrom(
      found.filter((id) => !excluded.has(id)),
      rule.count,
      seed,
    );
    for (const id of ids) taken.add(id);
    outcomes.push(outcomeOf(index, rule.count, ids));
  }
  return outcomes;
}

export function outcomeOf(index: number, requested: number, questionIds: string[]): RuleOutcome {
  return { index, requested, selected: questionIds.length, shortfall: requested - questionIds.length, questionIds };
}

export function totals(outcomes: readonly RuleOutcome[]) {
  const requested = outcomes.reduce((n, o) => n + o.requested, 0);
  const selected = outcomes.reduce((n, o) => n + o.selected, 0);
  return { complete: selected === requested, requested, selected, shortfall: requested - selected };
}
