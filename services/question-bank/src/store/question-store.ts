import type { ClientSession } from 'mongoose';
import type { OutboxStamp } from '../../../kit/src/data/index.js';
import type { QuestionBankModels } from './models.js';
import type { QuestionRow, QuestionVersionRow } from './question-models.js';

type Filter = Record<string, unknown>;

// Internal fields a read never returns (the outbox paths are select: false already).
const HIDDEN = { searchTokens: 0 } as const;

export const findQuestion = (m: QuestionBankModels, filter: Filter) =>
  m.Question.findOne(filter, HIDDEN).lean<QuestionRow>().exec();

export async function pageQuestions(
  m: QuestionBankModels,
  filter: Filter,
  page: { skip: number; limit: number },
): Promise<{ rows: QuestionRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    m.Question.find(filter, HIDDEN)
      .sort({ createdAt: -1, _id: -1 })
      .skip(page.skip)
      .limit(page.limit)
      .lean<QuestionRow[]>()
      .exec(),
    m.Question.countDocuments(filter).exec(),
  ]);
  return { rows, total };
}

/** Keyset page in `_id` order (the projection backfill's cursor). */
export const questionsAfter = (m: QuestionBankModels, filter: Filter, after: string | null, limit: number) =>
  m.Question.find(after ? { $and: [filter, { _id: { $gt: after } }] } : filter, HIDDEN)
    .sort({ _id: 1 })
    .limit(limit)
    .lean<QuestionRow[]>()
    .exec();

/** Ids only (`_id` projection), newest first when limited: a rule over 10,000 questions loads no bodies. */
export async function questionIds(m: QuestionBankModels, filter: Filter, limit: number | null): Promise<string[]> {
  let query = m.Question.find(filter, { _id: 1 });
  if (limit !== null) query = query.sort({ createdAt: -1, _id: -1 }).limit(limit);
  const rows = await query.lean<Array<{ _id: string }>>().exec();
  return rows.map((r) => r._id);
}

export const findQuestionsByIds = (m: QuestionBankModels, ids: string[], filter: Filter) =>
  m.Question.find({ ...filter, _id: { $in: ids } }, HIDDEN)
    .lean<QuestionRow[]>()
    .exec();

export const findVersion = (m: QuestionBankModels, id: string) =>
  m.QuestionVersion.findById(id).lean<QuestionVersionRow>().exec();

export async function insertVersion(m: QuestionBankModels, row: QuestionVersionRow, session?: ClientSession) {
  await m.QuestionVersion.collection.insertOne(row as never, { session });
}

export async function deleteVersion(m: QuestionBankModels, id: string) {
  await m.QuestionVersion.collection.deleteOne({ _id: id } as never);
}

/** Removes the version holding `versionNumber` when it was written before `writtenBefore` (see write.ts). */
export async function deleteAbandonedVersion(
  m: QuestionBankModels,
  at: { questionId: string; versionNumber: number },
  writtenBefore: Date,
) {
  await m.QuestionVersion.collection.deleteOne({ ...at, createdAt: { $lt: writtenBefore } });
}

export async function deleteVersionsOf(m: QuestionBankModels, questionId: string, session?: ClientSession) {
  await m.QuestionVersion.collection.deleteMany({ questionId }, { session });
}

export async function insertQuestion(
  m: QuestionBankModels,
  row: QuestionRow,
  stamp: OutboxStamp,
  session?: ClientSession,
): Promise<void> {
  await m.Question.collection.insertOne({ ...row, ...stamp.fields } as never, { session });
}

export interface CasWrite {
  set: Partial<QuestionRow>;
  unset?: string[];
  stamp: OutboxStamp;
}

/**
 * Writes a question only if its `searchVersion` is still `expected` (compare-and-set): two
 * writers never give one sourceVersion to two different states. Returns whether it wrote.
 */
export async function casUpdateQuestion(
  m: QuestionBankModels,
  ref: { id: string; expected: number },
  write: CasWrite,
  session?: ClientSession,
): Promise<boolean> {
  const unset = Object.fromEntries((write.unset ?? []).map((f) => [f, '']));
  const res = await m.Question.collection.updateOne(
    { _id: ref.id, searchVersion: ref.expected, removedAt: null } as never,
    { $set: write.set, ...(write.unset?.length ? { $unset: unset } : {}), ...write.stamp.update } as never,
    { session },
  );
  return res.modifiedCount === 1;
}

/** A folder the writer may file into: same organization, and not another teacher's private one. */
export async function folderVisible(
  m: QuestionBankModels,
  id: string,
  scope: { organizationId: string; userId: string },
) {
  const folder = await m.QuestionFolder.findById(id).lean().exec();
  if (!folder || folder.organizationId !== scope.organizationId) return false;
  return folder.visibility !== 'PRIVATE' || folder.createdById === scope.userId;
}

export const findVersions = (m: QuestionBankModels, ids: string[]) =>
  ids.length === 0
    ? Promise.resolve([] as QuestionVersionRow[])
    : m.QuestionVersion.find({ _id: { $in: ids } })
        .lean<QuestionVersionRow[]>()
        .exec();
