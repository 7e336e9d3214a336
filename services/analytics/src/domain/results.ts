import { AppError, type Actor } from '../../../kit/src/core/index.js';
import type { ResultRow, TopicOccurrenceRow } from '../store/models.js';
import * as store from '../store/result-store.js';
import { inOrganization, readerReach } from './reach.js';
import type { AnalyticsDeps } from './deps.js';
import { deriveWeakTopics, WEAK_TOPIC_WINDOW, type WeakTopic } from './weak-topics.js';

export type ResultQuery = Omit<store.ResultFilter, 'organizationId'>;

export interface SnapshotInput {
  attemptId?: string;
  organizationId?: string | null;
  student: { id: string; fullName?: string | null; accountCode?: string | null };
  classroom?: { id: string; name?: string | null } | null;
  exam: { id: string; title: string; subjectId?: string | null; gradeLevel?: number | null };
  score: number;
  maxScore?: number | null;
  scorePercent?: number | null;
  correctCount: number;
  wrongCount: number;
  questionCount?: number | null;
  durationSeconds: number;
  status: string;
  submissionSource?: string | null;
  startedAt?: Date | null;
  submittedAt: Date;
  weakTopics?: Array<{ topic: string; topicId?: string | null; questionId?: string | null }>;
}

export type ResultView = ReturnType<typeof resultView>;

export function resultView(r: ResultRow) {
  return {
    attemptId: r._id,
    organizationId: r.organizationId,
    student: r.student,
    classroom: r.classroom,
    exam: r.exam,
    score: r.score,
    maxScore: r.maxScore,
    scorePercent: r.scorePercent,
    correctCount: r.correctCount,
    wrongCount: r.wrongCount,
    questionCount: r.questionCount,
    durationSeconds: r.durationSeconds,
    status: r.status,
    submissionSource: r.submissionSource,
    startedAt: r.startedAt?.toISOString() ?? null,
    submittedAt: r.submittedAt.toISOString(),
    weakTopics: r.weakTopics.map((t) => ({ topic: t.topic, topicId: t.topicId, questionId: t.questionId })),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

const occurrences = (list: SnapshotInput['weakTopics'] = []): TopicOccurrenceRow[] =>
  list.map((t) => ({ topic: t.topic.trim(), topicId: t.topicId ?? null, questionId: t.questionId ?? null }));

const orNull = <T>(v: T | null | undefined): T | null => v ?? null;

function refsOf(s: SnapshotInput) {
  const classroom = s.classroom ? { id: s.classroom.id, name: orNull(s.classroom.name) } : null;
  const exam = {
    id: s.exam.id,
    title: s.exam.title,
    subjectId: orNull(s.exam.subjectId),
    gradeLevel: orNull(s.exam.gradeLevel),
  };
  const student = {
    id: s.student.id,
    fullName: orNull(s.student.fullName),
    accountCode: orNull(s.student.accountCode),
  };
  return {
    organizationId: orNull(s.organizationId),
    studentId: student.id,
    classroomId: classroom?.id ?? null,
    examId: exam.id,
    subjectId: exam.subjectId,
    gradeLevel: exam.gradeLevel,
    student,
    classroom,
    exam,
  };
}

/** Pure: the stored row of a hydrated result (from a PUT body or a graded event). */
export function resultRow(
  attemptId: string,
  s: SnapshotInput,
  meta: { source: ResultRow['source']; now: Date },
): Omit<ResultRow, 'createdAt'> {
  return {
    _id: attemptId,
    ...refsOf(s),
    score: s.score,
    maxScore: orNull(s.maxScore),
    scorePercent: orNull(s.scorePercent),
    correctCount: s.correctCount,
    wrongCount: s.wrongCount,
    questionCount: orNull(s.questionCount),
    durationSeconds: s.durationSeconds,
    status: s.status,
    submissionSource: orNull(s.submissionSource),
    startedAt: orNull(s.startedAt),
    submittedAt: s.submittedAt,
    weakTopics: occurrences(s.weakTopics),
    source: meta.source,
    updatedAt: meta.now,
  };
}

/** PUT snapshot: the organization defaults to the caller's X-Organization-Id. */
export async function putSnapshot(deps: AnalyticsDeps, actor: Actor, attemptId: string, s: SnapshotInput) {
  if (s.attemptId !== undefined && s.attemptId !== attemptId) {
    throw new AppError('VALIDATION_ERROR', 'attemptId in the body does not match the path', {
      details: [{ path: 'attemptId', message: 'must equal the attemptId in the path' }],
    });
  }
  const input = {
    ...s,
    organizationId: s.organizationId !== undefined ? s.organizationId : (actor.organizationId ?? null),
  };
  const row = resultRow(attemptId, input, { source: { kind: 'SNAPSHOT', eventId: null }, now: deps.clock() });
  return resultView(await store.upsertResult(deps.models, row));
}

/**
 * Whose results a read may see (readerReach): a STUDENT's own reach is their own results (naming
 * another student is 403); a PARENT or a user without a role has none (the service holds no
 * parent-student links).
 */
export function scoped(actor: Actor, q: ResultQuery): store.ResultFilter {
  const inOrg = inOrganization(actor, q);
  if (readerReach(actor, 'results') === 'organization') return inOrg;
  if (actor.role !== 'STUDENT') {
    throw new AppError('FORBIDDEN', 'Results are for teachers and administrators of the organization');
  }
  if (q.studentId !== undefined && q.studentId !== actor.userId) {
    throw new AppError('FORBIDDEN', 'A student reads only their own results');
  }
  return { ...inOrg, studentId: actor.userId };
}

export async function listResults(
  deps: AnalyticsDeps,
  actor: Actor,
  q: ResultQuery,
  page: { skip: number; limit: number },
) {
  const { rows, total } = await store.listResults(deps.models, scoped(actor, q), page);
  return { items: rows.map(resultView), total };
}

export async function weakTopicsOf(deps: AnalyticsDeps, f: store.ResultFilter) {
  const rows = await store.newestTopics(deps.models, f, WEAK_TOPIC_WINDOW);
  return { items: deriveWeakTopics(rows), resultCount: rows.length };
}

export function listWeakTopics(deps: AnalyticsDeps, actor: Actor, q: ResultQuery) {
  return weakTopicsOf(deps, scoped(actor, q));
}

export interface Summary {
  attemptCount: number;
  averageScore: number | null;
  correctCount: number;
  wrongCount: number;
  weakTopics: WeakTopic[];
}

export type SummaryScope = 'examId' | 'classroomId' | 'studentId';

export async function summaryOf(deps: AnalyticsDeps, actor: Actor, scope: SummaryScope, id: string) {
  const f = scoped(actor, { [scope]: id });
  const [t, weak] = await Promise.all([store.totals(deps.models, f), weakTopicsOf(deps, f)]);
  const summary: Summary = {
    attemptCount: t.attemptCount,
    averageScore: t.attemptCount > 0 ? t.scoreSum / t.attemptCount : null,
    correctCount: t.correctCount,
    wrongCount: t.wrongCount,
    weakTopics: weak.items,
  };
  return { [scope]: id, ...summary };
}
