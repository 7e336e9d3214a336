// Pure: the start validations of seed 002, each with its own error, in the contract's order.
import { AppError } from '../../../kit/src/core/index.js';
import { CODES, MSG } from '../messages.js';
import type { AccessInput, ExamSnapshot, StartInput } from './start-input.js';

const fail = (key: keyof typeof CODES & keyof typeof MSG): never => {
  throw new AppError(CODES[key], MSG[key]);
};

type Key = keyof typeof CODES & keyof typeof MSG;

// Each rule names the error it raises when its condition holds; the first that holds wins.
const RULES: Array<[Key, (input: StartInput, pathExamId: string, now: Date) => boolean]> = [
  ['examIdMismatch', ({ exam }, pathExamId) => exam.id !== pathExamId],
  ['notPublished', ({ exam }) => exam.status !== 'PUBLISHED'],
  ['offline', ({ exam }) => exam.deliveryMode === 'OFFLINE'],
  ['notOpen', ({ exam }, _p, now) => exam.openTime !== null && now < exam.openTime],
  ['closed', ({ exam }, _p, now) => exam.closeTime !== null && now >= exam.closeTime],
  ['passwordRequired', ({ exam, access }) => exam.requiresAccessPassword && !access.passwordVerified],
  ['accessDenied', ({ access }) => !access.assigned && !access.accessLink?.active],
  ['noQuestions', ({ questions }) => questions.length === 0],
];

/** The checks that need no stored attempt: exam state, time window, password, access, questions. */
export function checkStartable(pathExamId: string, input: StartInput, now: Date): void {
  const hit = RULES.find(([, holds]) => holds(input, pathExamId, now));
  if (hit) fail(hit[0]);
}

/** The per-student limit: `access.attemptLimit` (the caller's override) else `exam.maxAttempts`; 0 or null is none. */
export function attemptLimitOf(exam: ExamSnapshot, access: AccessInput): number | null {
  const limit = access.attemptLimit ?? exam.maxAttempts;
  return limit && limit > 0 ? limit : null;
}

export function checkAttemptLimit(limit: number | null, previous: number): void {
  if (limit !== null && previous >= limit) fail('attemptLimit');
}

/**
 * A guest (not assigned) entering through a link counts against the link's `maxStudents`; a
 * student who already started through it is not counted twice.
 */
export function checkLinkLimit(access: AccessInput, studentId: string, linkStudents: readonly string[]): void {
  const link = access.accessLink;
  if (access.assigned || !link || link.maxStudents === null) return;
  if (linkStudents.includes(studentId)) return;
  if (linkStudents.length >= link.maxStudents) fail('linkLimit');
}

/** startedAt + duration, never past the close time; null when the exam has neither. */
export function deadlineOf(exam: ExamSnapshot, startedAt: Date): Date | null {
  const byDuration = exam.durationMinutes ? new Date(startedAt.getTime() + exam.durationMinutes * 60_000) : null;
  if (!byDuration) return exam.closeTime;
  if (exam.closeTime && exam.closeTime < byDuration) return exam.closeTime;
  return byDuration;
}
