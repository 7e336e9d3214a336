import type { ExamRefRow, UsageCountRow } from '../../store/catalog-models.js';
import * as jobs from '../../store/deletion-store.js';
import type { QuestionRow } from '../../store/question-models.js';
import * as store from '../../store/question-store.js';
import type { QuestionBankDeps } from '../deps.js';
import { removeForever } from '../questions/remove.js';
import { writeFilter, type Writer } from '../questions/scope.js';
import { distinct, JOB_BATCH_SIZE, JOB_CONCURRENCY } from './plan.js';

export interface Selection {
  ids?: string[];
  mode?: 'all';
}

export const PREVIEW_CONTENT_CHARS = 300;

/** The rows a selection names: the ids in the writer's scope, or the first batch `mode: all` would take. */
async function selectedRows(deps: QuestionBankDeps, w: Writer, sel: Selection): Promise<QuestionRow[]> {
  if (sel.mode === 'all')
    return store.questionsAfter(deps.models, { ...writeFilter(w), status: 'ARCHIVED' }, null, JOB_BATCH_SIZE);
  const ids = distinct(sel.ids ?? []);
  const rows = await store.findQuestionsByIds(deps.models, ids, writeFilter(w));
  const order = new Map(ids.map((id, i) => [id, i]));
  return rows.sort((a, b) => order.get(a._id)! - order.get(b._id)!);
}

interface AffectedExam {
  id: string;
  title: string;
  status: string;
  createdAt: string;
  affectedQuestions: number;
}

/** Pure: exam refs grouped by exam, newest exam first; `affectedQuestions` counts distinct questions. */
export function affectedExams(refs: ExamRefRow[]): AffectedExam[] {
  const byExam = new Map<string, { ref: ExamRefRow; questions: Set<string> }>();
  for (const ref of refs) {
    const seen = byExam.get(ref.examId) ?? { ref, questions: new Set<string>() };
    seen.questions.add(ref.questionId);
    byExam.set(ref.examId, seen);
  }
  return [...byExam.values()]
    .map(({ ref, questions }) => ({
      id: ref.examId,
      title: ref.title,
      status: ref.status,
      createdAt: new Date(ref.createdAt).toISOString(),
      affectedQuestions: questions.size,
    }))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
}

const countsOf = (u: UsageCountRow | undefined) => ({
  examItems: u?.examItems ?? 0,
  attemptItems: u?.attemptItems ?? 0,
  answers: u?.answers ?? 0,
});

function questionSummary(row: QuestionRow, usage: UsageCountRow | undefined) {
  return {
    id: row._id,
    content: [...(row.content ?? '')].slice(0, PREVIEW_CONTENT_CHARS).join(''),
    status: row.status,
    type: row.type,
    subjectId: row.subjectId,
    gradeLevel: row.gradeLevel,
    createdById: row.createdById,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    _count: countsOf(usage),
  };
}

/** What a permanent delete of the selection would touch, from the exam-ref and usage read models. */
export async function permanentDeleteImpact(deps: QuestionBankDeps, w: Writer, sel: Selection) {
  const rows = await selectedRows(deps, w, sel);
  const ids = rows.map((r) => r._id);
  const [refs, usage] = await Promise.all([
    jobs.examRefsOf(deps.models, ids, w.organizationId),
    jobs.usageOf(deps.models, ids, w.organizationId),
  ]);
  const usageById = new Map(usage.map((u) => [u._id, u]));
  const exams = affectedExams(refs);
  return {
    questions: rows.map((r) => questionSummary(r, usageById.get(r._id))),
    affectedExams: exams,
    // The contract takes counts from usage counts (they survive missing exam refs): exam items.
    affectedExamCount: usage.reduce((n, u) => n + u.examItems, 0),
    affectedAttemptCount: usage.reduce((n, u) => n + u.attemptItems, 0),
  };
}

/** Runs `work` over `items` with at most `limit` at once; results in input order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>) {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await work(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

/** The synchronous route: every status in the writer's scope; out-of-scope and unknown ids skipped. */
export async function permanentDelete(deps: QuestionBankDeps, w: Writer, input: { ids: string[] }) {
  const ids = distinct(input.ids);
  const filter = writeFilter(w);
  const removed = await mapLimited(ids, JOB_CONCURRENCY, (id) => removeForever(deps, filter, id));
  return { requested: ids.length, deleted: removed.filter(Boolean).length };
}
