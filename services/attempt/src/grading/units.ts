// Scores are integers of ten-thousandths inside the grader. Every sum is an integer sum (exact
// below 2^53), and a score leaves as `units / 10000`, the double nearest to that decimal, so
// 40 × 0.25 is 100000 units and reads back as exactly 10. Ten-thousandths rather than hundredths:
// the THPT ladder's 0.1 and 0.25 of a question weighted 0.25 are 0.025 and 0.0625.
export const SCALE = 10_000;

/** Half away from zero, so a penalty and a credit of the same size round to the same magnitude. */
export const roundHalfAway = (x: number): number => Math.sign(x) * Math.round(Math.abs(x));

export const toUnits = (x: number): number => roundHalfAway(x * SCALE);

export const fromUnits = (units: number): number => (units === 0 ? 0 : units / SCALE);

/** `a × b / c` for integers, rounded once at the end (c > 0). */
export const mulDiv = (a: number, b: number, c: number): number => roundHalfAway((a * b) / c);

export const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
