// Every MongoDB read and write of the import jobs: the rows, their stored events and outbox stamps
// (one single-document write each), the fast-job keys, the queue counts, the live poll, recovery,
// the worker's claim and lease, and the metric counts. The use cases (domain/jobs) say what to match
// and change in the store's own terms (JobMatch, JobChange); the MongoDB filters are built here.
import type { Registry } from 'prom-client';
import type { FilterQuery } from 'mongoose';
import type { Logger } from '../../../kit/src/core/index.js';
import type { PlatformEvent } from '../../../kit/src/bus/index.js';
import { createOutbox, isDuplicateKey, type MongoHandle, type Outbox } from '../../../kit/src/data/index.js';
import {
  jobModels,
  type ApprovalRow,
  type FastJobKeyRow,
  type ImportJobRow,
  type JobModels,
  type StoredEventRow,
} from './job-models.js';
import type { JobFilters, JobStatus, Paging } from './job-types.js';
import { spoolFor, type PayloadSpool } from './spool.js';

/** The job rows' models, their outbox and the payload spool, one per process. */
export interface JobStore {
  models: JobModels;
  outbox: Outbox;
  spool: PayloadSpool;
}

/** What a job store is opened on. */
export interface JobStoreOptions {
  db: MongoHandle;
  logger: Logger;
  /** The outbox's counters go here (the API process passes its registry). */
  metrics?: Registry;
  payloadStore: 'dir' | 'gridfs';
  payloadDir: string;
}

/** The models, the outbox over the job rows and the spool; the indexes are created (idempotent). */
export async function openJobStore(opts: JobStoreOptions): Promise<JobStore> {
  const models = jobModels(opts.db.conn);
  await models.ImportJob.createIndexes();
  await models.FastJobKey.createIndexes();
  return {
    models,
    outbox: createOutbox({ db: opts.db, owners: [models.ImportJob], logger: opts.logger, registry: opts.metrics }),
    spool: spoolFor(opts.payloadStore, { dir: opts.payloadDir, conn: opts.db.conn }),
  };
}

/** Which row a write applies to: its id, and optionally the state it must still be in. */
export interface JobMatch {
  id: string;
  organizationId?: string;
  run?: number;
  statuses?: JobStatus[];
  leaseToken?: string;
  attempts?: number;
  /** No live worker holds the run at this time (PENDING, or PROCESSING without a live lease). */
  claimableAt?: Date;
  /** No approval with this key is stored yet. */
  withoutApproval?: string;
}

/** What a write changes: fields set, the attempt count raised, an approval appended. */
export interface JobChange {
  set?: Partial<ImportJobRow>;
  incAttempts?: boolean;
  pushApproval?: ApprovalRow;
}

/** An event that leaves with a write (through the outbox), and its copy in the row's event list. */
export interface OutboundEvent {
  topic: string;
  event: PlatformEvent<unknown>;
  stored?: StoredEventRow;
}

const claimable = (now: Date): FilterQuery<ImportJobRow> => ({
  $or: [
    { status: 'PENDING' },
    { status: 'PROCESSING', lease: null },
    { status: 'PROCESSING', 'lease.until': { $lt: now } },
  ],
});

function filterOf(m: JobMatch): FilterQuery<ImportJobRow> {
  const filter: FilterQuery<ImportJobRow> = { _id: m.id };
  if (m.organizationId !== undefined) filter.organizationId = m.organizationId;
  if (m.run !== undefined) filter.run = m.run;
  if (m.statuses) filter.status = { $in: m.statuses };
  if (m.leaseToken !== undefined) filter['lease.token'] = m.leaseToken;
  if (m.attempts !== undefined) filter.attempts = m.attempts;
  if (m.claimableAt) Object.assign(filter, claimable(m.claimableAt));
  if (m.withoutApproval !== undefined) filter['approvals.approvalKey'] = { $ne: m.withoutApproval };
  return filter;
}

function updateOf(change: JobChange, now: Date, push: Record<string, unknown>): Record<string, unknown> {
  const update: Record<string, unknown> = { $set: { ...change.set, updatedAt: now } };
  if (change.incAttempts) update.$inc = { attempts: 1 };
  if (change.pushApproval) push.approvals = change.pushApproval;
  if (Object.keys(push).length > 0) update.$push = push;
  return update;
}

/**
 * Updates the row `match` names and, in the same write, stores the event in its list and stamps it
 * for the outbox. The row after the update, or null when nothing matched (then no event exists).
 */
export async function updateJob(
  store: JobStore,
  match: JobMatch,
  change: JobChange & { now: Date },
  out?: OutboundEvent,
): Promise<ImportJobRow | null> {
  const { ImportJob } = store.models;
  return store.outbox.transaction(async (unit, session) => {
    const push: Record<string, unknown> = {};
    if (out) {
      const stamp = unit.enqueue({ topic: out.topic, event: out.event, owner: ImportJob, ownerId: match.id });
      Object.assign(push, stamp.update.$push, out.stored ? { events: out.stored } : {});
    }
    const update = updateOf(change, change.now, push);
    return ImportJob.findOneAndUpdate(filterOf(match), update, { new: true, session }).lean<ImportJobRow>().exec();
  });
}

/** Inserts a new job with its first event stored and stamped inside the insert. */
export async function insertJob(store: JobStore, row: ImportJobRow, out: OutboundEvent): Promise<void> {
  const { ImportJob } = store.models;
  await store.outbox.transaction(async (unit, session) => {
    const stamp = unit.enqueue({ topic: out.topic, event: out.event, owner: ImportJob, ownerId: row._id });
    await ImportJob.create([{ ...row, events: out.stored ? [out.stored] : [], ...stamp.fields }], { session });
  });
}

/** Stamps an event on the row of this run without changing it (the run's work item). */
export async function stampJob(store: JobStore, job: { id: string; run: number }, out: OutboundEvent): Promise<void> {
  const { ImportJob } = store.models;
  await store.outbox.transaction(async (unit, session) => {
    const stamp = unit.enqueue({ topic: out.topic, event: out.event, owner: ImportJob, ownerId: job.id });
    await ImportJob.updateOne({ _id: job.id, run: job.run }, stamp.update, { session }).exec();
  });
}

/** The hidden fields a read adds to the summary fields. */
export type JobFields = 'summary' | 'detail' | 'events' | 'approvals' | 'payload';

const SELECT: Record<JobFields, string> = {
  summary: '',
  detail: '+packagingJson +parseResultJson +reviewedResultJson +approvals',
  events: '+events',
  approvals: '+approvals',
  payload: '+payloadRef',
};

/** One row by id (and organization, when given), with `fields`; null when none matches. */
export function findJob(
  store: JobStore,
  where: { id: string; organizationId?: string },
  fields: JobFields = 'summary',
): Promise<ImportJobRow | null> {
  const filter: FilterQuery<ImportJobRow> = { _id: where.id };
  if (where.organizationId !== undefined) filter.organizationId = where.organizationId;
  return store.models.ImportJob.findOne(filter).select(SELECT[fields]).lean<ImportJobRow>().exec();
}

/** The whole queue's waiting and active counts and the waiting jobs queued before this one. */
export async function queueCounts(
  store: JobStore,
  job: { id: string; status: JobStatus; queuedAt: Date },
): Promise<{ waiting: number; active: number; ahead: number }> {
  const { ImportJob } = store.models;
  const [waiting, active, ahead] = await Promise.all([
    ImportJob.countDocuments({ status: 'PENDING' }).exec(),
    ImportJob.countDocuments({ status: 'PROCESSING' }).exec(),
    job.status === 'PENDING'
      ? ImportJob.countDocuments({
          status: 'PENDING',
          $or: [{ queuedAt: { $lt: job.queuedAt } }, { queuedAt: job.queuedAt, _id: { $lt: job.id } }],
        }).exec()
      : Promise.resolve(0),
  ]);
  return { waiting, active, ahead };
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The MongoDB filter of a list: the organization's jobs narrowed by `f`. */
function listFilter(organizationId: string, f: JobFilters): FilterQuery<ImportJobRow> {
  const filter: FilterQuery<ImportJobRow> = { organizationId };
  if (f.status) filter.status = f.status;
  if (f.jobKind) filter.jobKind = f.jobKind;
  if (f.source) filter.source = f.source;
  if (f.createdBy) filter.createdBy = f.createdBy;
  if (f.createdFrom || f.createdTo) {
    filter.createdAt = {
      ...(f.createdFrom ? { $gte: f.createdFrom } : {}),
      ...(f.createdTo ? { $lte: f.createdTo } : {}),
    };
  }
  if (f.q) {
    const re = new RegExp(escapeRegex(f.q), 'i');
    filter.$or = [{ title: re }, { fileName: re }];
  }
  return filter;
}

/** One page of the organization's jobs (newest first) and the total of the filter. */
export async function listJobRows(
  store: JobStore,
  organizationId: string,
  f: JobFilters,
  paging: Paging,
): Promise<{ rows: ImportJobRow[]; total: number }> {
  const { ImportJob } = store.models;
  const filter = listFilter(organizationId, f);
  const [rows, total] = await Promise.all([
    ImportJob.find(filter)
      .sort({ createdAt: -1, _id: -1 })
      .skip((paging.page - 1) * paging.limit)
      .limit(paging.limit)
      .lean<ImportJobRow[]>()
      .exec(),
    ImportJob.countDocuments(filter).exec(),
  ]);
  return { rows, total };
}

/** Rows changed at or after `since`, oldest change first, at most `limit` (the live poll). */
export function changedSince(store: JobStore, since: Date, limit: number): Promise<ImportJobRow[]> {
  return store.models.ImportJob.find({ updatedAt: { $gte: since } })
    .sort({ updatedAt: 1 })
    .limit(limit)
    .lean<ImportJobRow[]>()
    .exec();
}

/** PENDING and PROCESSING rows with their payload reference, oldest queued first (recovery). */
export function unfinishedJobs(store: JobStore): Promise<ImportJobRow[]> {
  return store.models.ImportJob.find({ status: { $in: ['PENDING', 'PROCESSING'] } })
    .select('+payloadRef')
    .sort({ queuedAt: 1 })
    .lean<ImportJobRow[]>()
    .exec();
}

/** Moves the lease of the worker holding `token` to `until`; updatedAt stays (no live update). */
export async function renewJobLease(store: JobStore, jobId: string, token: string, until: Date): Promise<void> {
  await store.models.ImportJob.updateOne(
    { _id: jobId, 'lease.token': token },
    { $set: { 'lease.until': until } },
  ).exec();
}

/** Whether another organization's import job was made from the storage key (then it is that organization's). */
export async function storageKeyElsewhere(store: JobStore, key: string, organizationId: string): Promise<boolean> {
  return (
    (await store.models.ImportJob.exists({ questionStorageKey: key, organizationId: { $ne: organizationId } })) !== null
  );
}

/** A fast-job key row, or null. */
export function findFastKey(store: JobStore, id: string): Promise<FastJobKeyRow | null> {
  return store.models.FastJobKey.findById(id).lean<FastJobKeyRow>().exec();
}

/** Creates the key row; false when it exists already. */
export async function createFastKey(store: JobStore, row: FastJobKeyRow): Promise<boolean> {
  try {
    await store.models.FastJobKey.create(row);
    return true;
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    return false;
  }
}

/** Moves the key from the job `heldBy` to `row.jobId`; false when another request moved it first. */
export async function retakeFastKey(store: JobStore, heldBy: string, row: FastJobKeyRow): Promise<boolean> {
  const taken = await store.models.FastJobKey.updateOne(
    { _id: row._id, jobId: heldBy },
    { $set: { jobId: row.jobId, createdAt: row.createdAt } },
  ).exec();
  return taken.modifiedCount === 1;
}

/** Below Prometheus's default 10 s scrape timeout. */
export const METRICS_QUERY_MAX_MS = 5_000;

/**
 * Jobs per status (only those of `statuses`): one aggregation whose $match on `status` runs on the
 * { status: 1, queuedAt: 1 } index, covered (no job document is fetched).
 */
export async function countByStatus(store: JobStore, statuses: readonly JobStatus[]): Promise<Map<string, number>> {
  const rows = await store.models.ImportJob.aggregate<{ _id: string; n: number }>([
    { $match: { status: { $in: statuses } } },
    { $group: { _id: '$status', n: { $sum: 1 } } },
  ])
    .option({ maxTimeMS: METRICS_QUERY_MAX_MS })
    .exec();
  return new Map(rows.map((r) => [r._id, r.n]));
}

/**
 * Jobs FAILED at or after `since` and still FAILED, read on the { updatedAt: 1 } index (hinted): a
 * FAILED write sets updatedAt with failedAt, and updatedAt only moves forward.
 */
export function countFailedSince(store: JobStore, since: Date): Promise<number> {
  return store.models.ImportJob.countDocuments(
    { updatedAt: { $gte: since }, status: 'FAILED', failedAt: { $gte: since } },
    { hint: { updatedAt: 1 }, maxTimeMS: METRICS_QUERY_MAX_MS },
  ).exec();
}
