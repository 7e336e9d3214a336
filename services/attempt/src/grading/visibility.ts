import type { HiddenReason, ResultPolicyInput, Visibility, VisibilityActor } from './types.js';

export function scorePercent(_totalScore: number | null, _maxScore: number): number | null {
  throw new Error('not implemented yet');
}

export function visibility(_policy: ResultPolicyInput, _actor: VisibilityActor, _now: Date): Visibility {
  throw new Error('not implemented yet');
}

export function redact<T extends object>(_detail: T, _hiddenReason: HiddenReason): T & { hiddenReason: HiddenReason } {
  throw new Error('not implemented yet');
}
