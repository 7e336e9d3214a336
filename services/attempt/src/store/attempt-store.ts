import type { ClientSession, Collection, Filter, UpdateFilter } from 'mongodb';
import { isDuplicateKey } from '../../../kit/src/data/index.js';
import type { AnswerRow, AttemptModels, AttemptRow, EventRow } from './models.js';

// Detail reads never carry the event log or the outbox fields.
const DETAIL = { events: 0, _outbox: 0, _outboxClaim: 0 } as const;

export type AttemptDoc = Omit<AttemptRow, 'events'>;

/** One answer save, as the domain decided it: the compare-and-set's expectations and its writes. */
export interface AnswerSave {
  attemptId: string;
  index: number;
  /** The answer's stored serverVersion the save read: a concurrent save changes it and loses this one. */
  expectedVersion: number;
  now: Date;
  row: AnswerRow;
  /** The SAVE_ANSWER event to append, or null when the event log is full (the save is unrecorded). */
  event: EventRow | null;
}

function saveFilter(save: AnswerSave): Filter<AttemptRow> {
  return {
    _id: save.attemptId,
    status: 'IN_PROGRESS',
    [`answers.${save.index}.serverVersion`]: save.expectedVersion,
    $or: [{ deadlineAt: null }, { deadlineAt: { $gt: save.now } }],
  };
}

function saveUpdate(save: AnswerSave): UpdateFilter<AttemptRow> {
  const $set = { [`answers.${save.index}`]: save.row, updatedAt: save.row.savedAt! };
  if (!save.event) return { $set, $inc: { rev: 1 } };
  return { $set, $inc: { rev: 1, eventCount: 1 }, $push: { events: save.event } };
}

/** The attempt queries, on the driver collection: the hot paths skip mongoose's casting. */
export interface AttemptStore {
  insert(row: AttemptRow): Promise<'inserted' | 'duplicate'>;
  byId(id: string): Promise<AttemptDoc | null>;
  active(activeKey: string): Promise<AttemptDoc | null>;
  countFor(examId: string, studentId: string): Promise<number>;
  linkStudents(examId: string, accessLinkId: string): Promise<string[]>;
  events(id: string): Promise<Pick<AttemptRow, '_id' | 'studentId' | 'organizationId' | 'events'> | null>;
  /** One conditional write; the document after it, or null when the filter no longer matched. */
  casUpdate(
    filter: Filter<AttemptRow>,
    update: UpdateFilter<AttemptRow>,
    session?: ClientSession,
  ): Promise<AttemptDoc | null>;
  /**
   * Writes answer `index` (and records `event` when given) only while the attempt is in progress,
   * before its deadline, with that answer still at `expectedVersion`: whether the write matched.
   */
  setAnswer(save: AnswerSave): Promise<boolean>;
  due(now: Date, limit: number): Promise<string[]>;
}

export function attemptStore(models: AttemptModels): AttemptStore {
  const col = models.Attempt.collection as unknown as Collection<AttemptRow>;
  return {
    async insert(row) {
      try {
        await col.insertOne(row);
        return 'inserted';
      } catch (err) {
        if (isDuplicateKey(err)) return 'duplicate';
        throw err;
      }
    },
    byId: (id) => col.findOne({ _id: id }, { projection: DETAIL }),
    active: (activeKey) => col.findOne({ activeKey, status: 'IN_PROGRESS' }, { projection: DETAIL }),
    countFor: (examId, studentId) => col.countDocuments({ examId, studentId }),
    async linkStudents(examId, accessLinkId) {
      return (await col.distinct('studentId', { examId, accessLinkId })) as string[];
    },
    events: (id) => col.findOne({ _id: id }, { projection: { _id: 1, studentId: 1, organizationId: 1, events: 1 } }),
    async casUpdate(filter, update, session) {
      return col.findOneAndUpdate(filter, update, {
        returnDocument: 'after',
        projection: DETAIL,
        includeResultMetadata: false,
        ...(session ? { session } : {}),
      });
    },
    async setAnswer(save) {
      return (await col.updateOne(saveFilter(save), saveUpdate(save))).matchedCount === 1;
    },
    async due(now, limit) {
      const rows = await col
        .find({ status: 'IN_PROGRESS', deadlineAt: { $ne: null, $lte: now } }, { projection: { _id: 1 } })
        .sort({ deadlineAt: 1 })
        .limit(limit)
        .toArray();
      return rows.map((r) => r._id);
    },
  };
}
