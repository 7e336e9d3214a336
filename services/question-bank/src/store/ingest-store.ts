// The ingest's writes. Each is idempotent by id, so a resumed ingest writes the same rows again
// without duplicates: inserts ignore duplicate-key errors, groups are replaced by id, and the
// flip only matches questions still hidden under this ledger.
import type { ClientSession } from 'mongoose';
import type { OutboxStamp } from '../../../kit/src/data/index.js';
import type { QuestionBankModels } from './models.js';
import type { QuestionGroupRow } from './catalog-models.js';
import type { IngestLedgerRow } from './ingest-models.js';
import type { QuestionRow, QuestionVersionRow } from './question-models.js';

/**
 * `removedAt` of a question an unfinished ingest wrote: every reader filters `removedAt: null`, so
 * the row is invisible until the flip; `ingestPending` names the ledger that owns it.
 */
export const HIDDEN_SINCE = new Date(0);

function onlyDuplicates(err: unknown): boolean {
  const e = err as { code?: number; writeErrors?: Array<{ code?: number }> | { code?: number } };
  const list = Array.isArray(e.writeErrors) ? e.writeErrors : e.writeErrors ? [e.writeErrors] : [];
  if (list.length > 0) return list.every((w) => w.code === 11000);
  return e.code === 11000;
}

async function insertIgnoringDuplicates(run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (err) {
    if (!onlyDuplicates(err)) throw err;
  }
}

export const insertLedger = async (m: QuestionBankModels, row: IngestLedgerRow) => {
  await m.IngestLedger.collection.insertOne(row as never);
};

export const findLedgers = (m: QuestionBankModels, organizationId: string, identities: string[]) =>
  m.IngestLedger.find({ organizationId, identities: { $in: identities } })
    .lean<IngestLedgerRow[]>()
    .exec();

export async function markResumed(m: QuestionBankModels, id: string, at: Date) {
  await m.IngestLedger.collection.updateOne({ _id: id, state: 'PENDING' } as never, {
    $inc: { resumes: 1 },
    $set: { updatedAt: at },
  });
}

export async function markComplete(m: QuestionBankModels, id: string, at: Date, session?: ClientSession) {
  await m.IngestLedger.collection.updateOne(
    { _id: id } as never,
    { $set: { state: 'COMPLETE', completedAt: at, updatedAt: at } },
    { session },
  );
}

export const insertVersions = (m: QuestionBankModels, rows: QuestionVersionRow[], session?: ClientSession) =>
  insertIgnoringDuplicates(() => m.QuestionVersion.collection.insertMany(rows as never[], { ordered: false, session }));

export async function upsertGroups(m: QuestionBankModels, rows: QuestionGroupRow[], session?: ClientSession) {
  if (rows.length === 0) return;
  const ops = rows.map((r) => ({ replaceOne: { filter: { _id: r._id }, replacement: r, upsert: true } }));
  await m.QuestionGroup.collection.bulkWrite(ops as never, { ordered: false, session });
}

export const insertHiddenQuestions = (
  m: QuestionBankModels,
  rows: QuestionRow[],
  ledgerId: string,
  session?: ClientSession,
) =>
  insertIgnoringDuplicates(() =>
    m.Question.collection.insertMany(
      rows.map((r) => ({ ...r, removedAt: HIDDEN_SINCE, ingestPending: ledgerId })) as never[],
      { ordered: false, session },
    ),
  );

/**
 * One command makes every hidden question of the ledger visible, each with its search event
 * stamped into its own update. A question flipped before (a crash after the flip) no longer
 * matches, so it gets no second event. Returns how many flipped now.
 */
export async function flipQuestions(
  m: QuestionBankModels,
  flips: Array<{ id: string; stamp: OutboxStamp }>,
  ledgerId: string,
  session?: ClientSession,
): Promise<number> {
  const ops = flips.map((f) => ({
    updateOne: {
      filter: { _id: f.id, ingestPending: ledgerId },
      update: { $set: { removedAt: null }, $unset: { ingestPending: '' }, ...f.stamp.update },
    },
  }));
  const res = await m.Question.collection.bulkWrite(ops as never, { ordered: false, session });
  return res.modifiedCount;
}
