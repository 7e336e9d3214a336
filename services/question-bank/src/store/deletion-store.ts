import type { UpdateQuery } from 'mongoose';
import type { QuestionBankModels } from './models.js';
import type { ExamRefRow, UsageCountRow } from './catalog-models.js';
import type { DeletionJobRow, JobStatus } from './deletion-models.js';

type Filter = Record<string, unknown>;
type JobUpdate = UpdateQuery<DeletionJobRow>;

export const insertJob = async (m: QuestionBankModels, row: DeletionJobRow) => {
  await m.DeletionJob.collection.insertOne(row as never);
};

export const findJob = (m: QuestionBankModels, filter: Filter) =>
  m.DeletionJob.findOne(filter).lean<DeletionJobRow>().exec();

/**
 * Takes the oldest unfinished job whose lease is free or lapsed, for `owner`, in one atomic
 * write: two replicas never hold one job (the loser's filter no longer matches).
 */
export const claimJob = (m: QuestionBankModels, lease: { owner: string; now: Date; until: Date }) =>
  m.DeletionJob.findOneAndUpdate(
    {
      status: { $in: ['pending', 'running'] },
      $or: [{ leaseUntil: null }, { leaseUntil: { $lt: lease.now } }],
    },
    {
      $set: { status: 'running', leaseOwner: lease.owner, leaseUntil: lease.until, updatedAt: lease.now },
      $inc: { attempts: 1, revision: 1 },
    },
    { sort: { _id: 1 }, new: true },
  )
    .lean<DeletionJobRow>()
    .exec();

/** Heartbeat: extends the lease only while `owner` still holds it. */
export async function renewLease(m: QuestionBankModels, id: string, owner: string, until: Date): Promise<boolean> {
  const res = await m.DeletionJob.updateOne({ _id: id, leaseOwner: owner }, { $set: { leaseUntil: until } }).exec();
  return res.matchedCount === 1;
}

/** A write by the lease holder (progress); null when it lost the lease. */
export const updateHeld = (m: QuestionBankModels, id: string, owner: string, update: JobUpdate) =>
  m.DeletionJob.findOneAndUpdate(
    { _id: id, leaseOwner: owner },
    { ...update, $inc: { ...update.$inc, revision: 1 } },
    {
      new: true,
    },
  )
    .lean<DeletionJobRow>()
    .exec();

/**
 * Compare-and-set on status: writes only when the job is still in one of `from` (and matches
 * `extra`), so a cancel and a completion racing each other leave exactly one terminal state.
 */
export const transitionJob = (
  m: QuestionBankModels,
  filter: { id: string; from: JobStatus[]; extra?: Filter },
  set: Partial<DeletionJobRow>,
) =>
  m.DeletionJob.findOneAndUpdate(
    { _id: filter.id, status: { $in: filter.from }, ...filter.extra },
    { $set: set, $inc: { revision: 1 } },
    { new: true },
  )
    .lean<DeletionJobRow>()
    .exec();

export const countQuestions = (m: QuestionBankModels, filter: Filter) => m.Question.countDocuments(filter).exec();

/**
 * A removed question's versions 1..last+1 (+1: a PATCH that died between its version insert and
 * its question write), each by its unique (questionId, versionNumber) key: an exact-key delete
 * uses that index on every server, where a delete by questionId alone scans on mongo-java-server.
 */
export async function deleteVersionsUpTo(m: QuestionBankModels, questionId: string, last: number): Promise<void> {
  const ops = Array.from({ length: Math.max(1, last + 1) }, (_, i) => ({
    deleteOne: { filter: { questionId, versionNumber: i + 1 } },
  }));
  await m.QuestionVersion.collection.bulkWrite(ops, { ordered: false });
}

/** The read models this service keeps about one question (its usage row and exam refs). */
export async function deleteOwnedProjections(m: QuestionBankModels, questionId: string): Promise<void> {
  await Promise.all([m.UsageCount.deleteOne({ _id: questionId }).exec(), m.ExamRef.deleteMany({ questionId }).exec()]);
}

export const examRefsOf = (m: QuestionBankModels, questionIds: string[], organizationId: string) =>
  questionIds.length === 0
    ? Promise.resolve([] as ExamRefRow[])
    : m.ExamRef.find({ questionId: { $in: questionIds }, organizationId: { $in: [organizationId, null] } })
        .lean<ExamRefRow[]>()
        .exec();

/** Usage rows of the organization's questions (a stray row naming another organization is not its count). */
export const usageOf = (m: QuestionBankModels, questionIds: string[], organizationId: string) =>
  questionIds.length === 0
    ? Promise.resolve([] as UsageCountRow[])
    : m.UsageCount.find({ _id: { $in: questionIds }, organizationId })
        .lean<UsageCountRow[]>()
        .exec();
