import type { FilterQuery } from 'mongoose';
import type { AnalyticsEventRow, AnalyticsModels } from './models.js';

export interface EventFilter {
  organizationId?: string;
  type?: string;
  actorId?: string;
  entity?: string;
  entityId?: string;
  studentId?: string;
  examId?: string;
  classroomId?: string;
  attemptId?: string;
  from?: Date;
  to?: Date;
}

const EQUAL_KEYS = [
  'organizationId',
  'type',
  'actorId',
  'entity',
  'entityId',
  'studentId',
  'examId',
  'classroomId',
  'attemptId',
] as const;

function eventQuery(f: EventFilter): FilterQuery<AnalyticsEventRow> {
  const q: FilterQuery<AnalyticsEventRow> = {};
  for (const key of EQUAL_KEYS) if (f[key] !== undefined) q[key] = f[key];
  if (f.from || f.to) q.occurredAt = { ...(f.from && { $gte: f.from }), ...(f.to && { $lte: f.to }) };
  return q;
}

export async function insertEvent(m: AnalyticsModels, row: AnalyticsEventRow): Promise<void> {
  await m.AnalyticsEvent.create(row);
}

export async function listEvents(
  m: AnalyticsModels,
  f: EventFilter,
  page: { skip: number; limit: number },
): Promise<{ rows: AnalyticsEventRow[]; total: number }> {
  const q = eventQuery(f);
  const [rows, total] = await Promise.all([
    m.AnalyticsEvent.find(q)
      .sort({ occurredAt: -1, _id: -1 })
      .skip(page.skip)
      .limit(page.limit)
      .lean<AnalyticsEventRow[]>()
      .exec(),
    m.AnalyticsEvent.countDocuments(q).exec(),
  ]);
  return { rows, total };
}
