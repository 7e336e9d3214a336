// Pure: the attempt.graded.v1 payload (kafka/schemas/attempt.graded.v1.json) of a graded attempt.
import { EVENT_TYPES } from '../../../../kafka/topics.js';
import { buildEvent, type PlatformEvent } from '../../../kit/src/bus/index.js';
import type { AttemptDoc } from '../store/attempt-store.js';
import type { SubmissionSource } from '../store/models.js';
import { scorePercentOf } from './grading.js';

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.slice(0, 500) : null);

export interface GradedFields {
  submittedAt: Date;
  submissionSource: SubmissionSource;
  durationSeconds: number;
  totalScore: number;
  correctCount: number;
  wrongCount: number;
  wrong: boolean[];
}

function wrongTopics(doc: AttemptDoc, wrong: boolean[]) {
  const out: Array<{ questionId: string; topicId: string | null; topic: string }> = [];
  doc.questions.forEach((q, i) => {
    const topicId = str(q.topicId);
    const topic = str(q.topicName) ?? topicId;
    if (wrong[i] && topic) out.push({ questionId: q.questionId, topicId, topic });
  });
  return out;
}

export function gradedEvent(doc: AttemptDoc, g: GradedFields, id: string): PlatformEvent<Record<string, unknown>> {
  const info = doc.studentInfo ?? {};
  const data = {
    attemptId: doc._id,
    organizationId: doc.organizationId,
    student: { id: doc.studentId, fullName: str(info.fullName), accountCode: str(info.accountCode) },
    classroom: doc.classroom,
    exam: doc.exam,
    status: 'GRADED',
    submissionSource: g.submissionSource,
    startedAt: doc.startedAt.toISOString(),
    submittedAt: g.submittedAt.toISOString(),
    durationSeconds: g.durationSeconds,
    totalScore: g.totalScore,
    maxScore: doc.maxScore,
    scorePercent: scorePercentOf(g.totalScore, doc.maxScore),
    correctCount: g.correctCount,
    wrongCount: g.wrongCount,
    questionCount: doc.questions.length,
    wrongAnswerTopics: wrongTopics(doc, g.wrong),
  };
  return buildEvent({ type: EVENT_TYPES.attemptGraded, source: 'attempt', subject: doc._id, data }, g.submittedAt, id);
}
