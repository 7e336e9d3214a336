import { AppError, type Actor } from '../../../kit/src/core/index.js';
import { CODES, MSG } from '../messages.js';
import type { AttemptDoc } from '../store/attempt-store.js';
import type { AnswerRow, AttemptRow, QuestionRow } from '../store/models.js';
import type { AttemptDeps } from './deps.js';
import { maxScoreOfRows, shuffled } from './grading.js';
import type { QuestionInput, StartInput } from './start-input.js';
import { attemptLimitOf, checkAttemptLimit, checkLinkLimit, checkStartable, deadlineOf } from './start-rules.js';
import { SYSTEM, submitAttempt } from './submit.js';

export interface StartResult {
  attempt: AttemptDoc;
  created: boolean;
}

export const activeKeyOf = (examId: string, studentId: string) => `${examId}\u0000${studentId}`;

const emptyAnswer = (questionId: string): AnswerRow => ({
  questionId,
  selectedOptionIds: [],
  statementAnswers: [],
  textAnswer: null,
  clientVersion: 0,
  serverVersion: 0,
  sourceTabId: null,
  savedAt: null,
  isCorrect: null,
  score: null,
});

/** The question's worth: its exam score, else its rule's maxScore, else 1. */
const scoreOf = (q: QuestionInput) => q.score ?? q.scoringRule?.maxScore ?? 1;

function copyQuestions(input: StartInput, attemptId: string): QuestionRow[] {
  const { exam } = input;
  const byOrder = [...input.questions].sort((a, b) => (a.orderIndex ?? 0) - (b.orderIndex ?? 0));
  const ordered = exam.shuffleQuestions || exam.randomizePerAttempt ? shuffled(byOrder, `${attemptId}:q`) : byOrder;
  return ordered.map((q, position) => {
    const snapshot = structuredClone(q);
    const given = q.optionOrder?.length ? q.optionOrder : q.options.map((o) => o.id);
    const optionOrder = exam.shuffleOptions ? shuffled(given, `${attemptId}:o:${q.questionId}`) : given;
    return { ...snapshot, id: q.id ?? q.questionId, position, score: scoreOf(q), optionOrder } as QuestionRow;
  });
}

function newAttempt(deps: AttemptDeps, input: StartInput, studentId: string, attemptNumber: number): AttemptRow {
  const { exam, access } = input;
  const now = deps.clock();
  const id = deps.newId();
  const questions = copyQuestions(input, id);
  return {
    _id: id,
    examId: exam.id,
    organizationId: exam.organizationId,
    studentId,
    activeKey: activeKeyOf(exam.id, studentId),
    status: 'IN_PROGRESS',
    attemptNumber,
    accessLinkId: access.assigned ? null : (access.accessLink?.id ?? null),
    assigned: access.assigned,
    startedAt: now,
    deadlineAt: deadlineOf(exam, now),
    submittedAt: null,
    submittedBy: null,
    submissionSource: null,
    durationSeconds: null,
    totalScore: null,
    maxScore: maxScoreOfRows(questions),
    correctCount: null,
    wrongCount: null,
    exam: { id: exam.id, title: exam.title, subjectId: exam.subjectId, gradeLevel: exam.gradeLevel },
    classroom: access.classroomId ? { id: access.classroomId, name: access.classroomName || null } : null,
    studentInfo: input.studentInfo,
    resultPolicy: {
      examTitle: exam.title,
      durationMinutes: exam.durationMinutes,
      showResultMode: exam.showResultMode,
      closeTime: exam.closeTime,
      resultsReleasedAt: exam.resultsReleasedAt,
      examStatus: exam.status,
    },
    questions,
    answers: questions.map((q) => emptyAnswer(q.questionId)),
    events: [{ id: deps.newId(), type: 'START', createdAt: now, metadata: { attemptNumber } }],
    eventCount: 1,
    rev: 0,
    createdAt: now,
    updatedAt: now,
  };
}

/** An in-progress attempt whose deadline passed is graded first, so it is never handed out again. */
async function reusable(deps: AttemptDeps, key: string): Promise<AttemptDoc | null> {
  const existing = await deps.store.active(key);
  if (!existing) return null;
  if (!existing.deadlineAt || existing.deadlineAt > deps.clock()) return existing;
  await submitAttempt(deps, existing._id, { source: 'TIMEOUT', by: SYSTEM });
  return null;
}

/** Start, or reuse the student's in-progress attempt (seed 002 "Attempt" transitions). */
export async function startAttempt(
  deps: AttemptDeps,
  actor: Actor,
  examId: string,
  input: StartInput,
): Promise<StartResult> {
  const studentId = actor.userId!;
  checkStartable(examId, input, deps.clock());
  const key = activeKeyOf(examId, studentId);
  const existing = await reusable(deps, key);
  if (existing) return { attempt: existing, created: false };
  const previous = await deps.store.countFor(examId, studentId);
  checkAttemptLimit(attemptLimitOf(input.exam, input.access), previous);
  if (input.access.accessLink && !input.access.assigned) {
    checkLinkLimit(input.access, studentId, await deps.store.linkStudents(examId, input.access.accessLink.id));
  }
  const row = newAttempt(deps, input, studentId, previous + 1);
  if ((await deps.store.insert(row)) === 'inserted') {
    const { events: _events, ...doc } = row;
    return { attempt: doc, created: true };
  }
  // A concurrent start won the unique activeKey: hand out its attempt.
  const winner = await deps.store.active(key);
  if (!winner) throw new AppError(CODES.busy, MSG.busy);
  return { attempt: winner, created: false };
}
