// Result visibility and redaction (seed 002 "Result").
import type { HiddenReason, ResultPolicyInput, Visibility, VisibilityActor } from './types.js';
import { toUnits } from './units.js';

/**
 * `(totalScore / maxScore) × 100`, unrounded, computed as `totalUnits × 100 / maxUnits` on the
 * integer ten-thousandths: the same quotient without the intermediate float (0.85 × 100 is
 * 85.00000000000001, 8500 × 100 / 10000 is 85). 0 when maxScore is 0; null when the total is.
 */
export function scorePercent(totalScore: number, maxScore: number): number;
export function scorePercent(totalScore: number | null, maxScore: number): number | null;
export function scorePercent(totalScore: number | null, maxScore: number): number | null {
  if (totalScore === null || !Number.isFinite(totalScore)) return null;
  const max = Number.isFinite(maxScore) ? toUnits(maxScore) : 0;
  return max <= 0 ? 0 : (toUnits(totalScore) * 100) / max;
}

function timeOf(v: Date | string | null | undefined): number | null {
  if (v === null || v === undefined) return null;
  const t = (v instanceof Date ? v : new Date(v)).getTime();
  return Number.isNaN(t) ? null : t;
}

const reached = (at: number | null, now: number) => at !== null && now >= at;

function forStudent(policy: ResultPolicyInput, now: number): Visibility {
  const released = reached(timeOf(policy.resultsReleasedAt), now);
  if (policy.showResultMode === 'IMMEDIATE' || released) return { visible: true };
  // An unknown mode is treated as MANUAL: hiding is the safe side of a policy we cannot read.
  if (policy.showResultMode !== 'AFTER_CLOSE') return { visible: false, hiddenReason: 'RESULTS_NOT_RELEASED' };
  return reached(timeOf(policy.closeTime), now)
    ? { visible: true }
    : { visible: false, hiddenReason: 'RESULTS_AFTER_CLOSE' };
}

/**
 * Whether `actor` sees the grading of an attempt. Nobody does while it is IN_PROGRESS (there is
 * none yet); teachers and admins do afterwards; students per `showResultMode` (IMMEDIATE always;
 * AFTER_CLOSE once `now >= closeTime` or `now >= resultsReleasedAt`; MANUAL once
 * `now >= resultsReleasedAt`); other roles never. Owner checks are the caller's.
 */
export function visibility(policy: ResultPolicyInput, actor: VisibilityActor, now: Date): Visibility {
  if (policy.status === 'IN_PROGRESS') return { visible: false, hiddenReason: 'ATTEMPT_IN_PROGRESS' };
  if (actor.role === 'TEACHER' || actor.role === 'ADMIN') return { visible: true };
  if (actor.role === 'STUDENT') return forStudent(policy, now.getTime());
  return { visible: false, hiddenReason: 'ROLE_NOT_ALLOWED' };
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const TOP_FIELDS = ['totalScore', 'correctCount', 'wrongCount', 'blankCount', 'ungradedCount', 'scorePercent'];
const ANSWER_FIELDS = ['isCorrect', 'score', 'outcome'];

function nulled(o: Json, fields: readonly string[]): Json {
  const out: Json = { ...o };
  for (const f of fields) if (f in out) out[f] = null;
  return out;
}

/**
 * A copy of an attempt detail (or a result `{ attempt, scorePercent }`) with the grading fields
 * present in it set to null (`totalScore`, `correctCount`, `wrongCount`, `blankCount`,
 * `ungradedCount`, `scorePercent`; each answer's `isCorrect`, `score`, `outcome`) and
 * `hiddenReason` set. A nested `attempt` is redacted the same way. Answer keys in question
 * snapshots are not touched: stripping them is a per-role decision of the caller.
 */
export function redact<T extends object>(detail: T, hiddenReason: HiddenReason): T & { hiddenReason: HiddenReason } {
  const out = nulled(detail as Json, TOP_FIELDS);
  if (Array.isArray(out.answers)) out.answers = out.answers.map((a) => (isObject(a) ? nulled(a, ANSWER_FIELDS) : a));
  if (isObject(out.attempt)) out.attempt = redact(out.attempt, hiddenReason);
  out.hiddenReason = hiddenReason;
  return out as T & { hiddenReason: HiddenReason };
}
