import { validateEvent } from '../../../../kafka/event-schemas.js';
import { TOPICS } from '../../../../kafka/topics.js';
import { PoisonMessageError, type PlatformEvent } from '../../../kit/src/bus/index.js';
import type { ResultRow } from '../store/models.js';
import { upsertResult } from '../store/result-store.js';
import { evaluateAlerts } from './alerts.js';
import type { AnalyticsDeps } from './deps.js';
import { resultRow, type SnapshotInput } from './results.js';

/** attempt.graded.v1's data (kafka/schemas/attempt.graded.v1.json). */
export interface AttemptGraded {
  attemptId: string;
  organizationId: string;
  student: { id: string; fullName?: string | null; accountCode?: string | null };
  classroom: { id: string; name?: string | null } | null;
  exam: { id: string; title: string; subjectId?: string | null; gradeLevel?: number | null };
  status: string;
  submissionSource: string;
  startedAt: string;
  submittedAt: string;
  durationSeconds: number;
  totalScore: number;
  maxScore: number;
  scorePercent: number | null;
  correctCount: number;
  wrongCount: number;
  questionCount: number;
  wrongAnswerTopics: Array<{ questionId: string; topicId?: string | null; topic: string }>;
}

/** Pure: the snapshot a graded attempt stands for; each wrong answer's topic is one occurrence. */
export function snapshotOfGraded(d: AttemptGraded): SnapshotInput {
  return {
    organizationId: d.organizationId,
    student: d.student,
    classroom: d.classroom,
    exam: d.exam,
    score: d.totalScore,
    maxScore: d.maxScore,
    scorePercent: d.scorePercent,
    correctCount: d.correctCount,
    wrongCount: d.wrongCount,
    questionCount: d.questionCount,
    durationSeconds: d.durationSeconds,
    status: d.status,
    submissionSource: d.submissionSource,
    startedAt: new Date(d.startedAt),
    submittedAt: new Date(d.submittedAt),
    weakTopics: d.wrongAnswerTopics,
  };
}

/**
 * The consumer's use case: project the graded attempt (an upsert by attempt id, safe to repeat),
 * then evaluate the student's alert rule. An event that breaks its schema can never succeed and
 * goes to the dead-letter topic at once.
 */
export async function handleAttemptGraded(deps: AnalyticsDeps, event: PlatformEvent<unknown>): Promise<ResultRow> {
  const check = validateEvent(event, TOPICS.attemptGraded);
  if (!check.valid) throw new PoisonMessageError(`invalid attempt.graded.v1: ${check.errors.slice(0, 5).join('; ')}`);
  const data = event.data as AttemptGraded;
  const row = resultRow(data.attemptId, snapshotOfGraded(data), {
    source: { kind: 'EVENT', eventId: event.id },
    now: deps.clock(),
  });
  const saved = await upsertResult(deps.models, row);
  await evaluateAlerts(deps, saved);
  return saved;
}
