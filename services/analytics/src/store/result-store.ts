import type { FilterQuery } from 'mongoose';
import type { AnalyticsModels, ResultRow, TopicOccurrenceRow } from './models.js';

export interface ResultFilter {
  /** null: results without an organization; absent: any. */
  organizationId?: string | null;
  studentId?: string;
  classroomId?: string;
  examId?: string;
  subjectId?: string;
  gradeLevel?: number;
  topic?: string;
  from?: Date;
  to?: Date;
}

const NEWEST_FIRST = { submittedAt: -1, _id: 1 } as const;

export function resultQuery(f: ResultFilter): FilterQuery<ResultRow> {
  const q: FilterQuery<ResultRow> = {};
  for (const key of ['organizationId', 'studentId', 'classroomId', 'examId', 'subjectId', 'gradeLevel'] as const) {
    if (f[key] !== undefined) q[key] = f[key];
  }
  if (f.topic !== undefined) q.$or = [{ 'weakTopics.topic': f.topic }, { 'weakTopics.topicId': f.topic }];
  if (f.from || f.to) q.submittedAt = { ...(f.from && { $gte: f.from }), ...(f.to && { $lte: f.to }) };
  return q;
}

/** Replaces the projection of one attempt (created once, `createdAt` kept). */
export async function upsertResult(m: AnalyticsModels, row: Omit<ResultRow, 'createdAt'>): Promise<ResultRow> {
  const { _id, ...set } = row;
  const saved = await m.Result.findOneAndUpdate(
    { _id },
    { $set: set, $setOnInsert: { createdAt: row.updatedAt } },
    { upsert: true, new: true },
  )
    .lean<ResultRow>()
    .exec();
  return saved!;
}

export function findResult(m: AnalyticsModels, attemptId: string): Promise<ResultRow | null> {
  return m.Result.findById(attemptId).lean<ResultRow>().exec();
}

export async function listResults(
  m: AnalyticsModels,
  f: ResultFilter,
  page: { skip: number; limit: number },
): Promise<{ rows: ResultRow[]; total: number }> {
  const q = resultQuery(f);
  const [rows, total] = await Promise.all([
    m.Result.find(q).sort(NEWEST_FIRST).skip(page.skip).limit(page.limit).lean<ResultRow[]>().exec(),
    m.Result.countDocuments(q).exec(),
  ]);
  return { rows, total };
}

/** The newest `limit` matching results' topic occurrences only (what weak topics need). */
export function newestTopics(
  m: AnalyticsModels,
  f: ResultFilter,
  limit: number,
): Promise<Array<{ weakTopics: TopicOccurrenceRow[] }>> {
  return m.Result.find(resultQuery(f), { weakTopics: 1 })
    .sort(NEWEST_FIRST)
    .limit(limit)
    .lean<Array<{ weakTopics: TopicOccurrenceRow[] }>>()
    .exec();
}

export interface Totals {
  attemptCount: number;
  scoreSum: number;
  correctCount: number;
  wrongCount: number;
}

export async function totals(m: AnalyticsModels, f: ResultFilter): Promise<Totals> {
  const [row] = await m.Result.aggregate<Totals>([
    { $match: resultQuery(f) },
    {
      $group: {
        _id: null,
        attemptCount: { $sum: 1 },
        scoreSum: { $sum: '$score' },
        correctCount: { $sum: '$correctCount' },
        wrongCount: { $sum: '$wrongCount' },
      },
    },
  ]).exec();
  return row ?? { attemptCount: 0, scoreSum: 0, correctCount: 0, wrongCount: 0 };
}
