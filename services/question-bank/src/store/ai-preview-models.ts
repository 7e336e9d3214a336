import { Schema, type Connection, type Model } from 'mongoose';
import { isDuplicateKey } from '../../../kit/src/data/index.js';

export const AI_PREVIEW_KINDS = ['DRAFT', 'SOLUTION'] as const;
export type AiPreviewKind = (typeof AI_PREVIEW_KINDS)[number];

/**
 * The idempotency record of one applied AI preview, keyed by (organizationId, actorId, kind,
 * previewId). It is written first, with the ids of the question (drafts) or version (solutions)
 * it will produce, so a retry after a crash finishes the same write instead of making a second.
 */
export interface AiPreviewRecordRow {
  _id: string;
  kind: AiPreviewKind;
  organizationId: string;
  actorId: string;
  previewId: string;
  /** sha256 of the canonical reviewed payload: a replay matches it, a conflict does not. */
  digest: string;
  questionId: string;
  versionId: string;
  state: 'PENDING' | 'DONE';
  createdAt: Date;
  completedAt: Date | null;
}

export interface AiPreviewModels {
  AiPreviewRecord: Model<AiPreviewRecordRow>;
}

const recordSchema = new Schema<AiPreviewRecordRow>(
  {
    _id: { type: String, required: true },
    kind: { type: String, required: true, enum: AI_PREVIEW_KINDS },
    organizationId: { type: String, required: true },
    actorId: { type: String, required: true },
    previewId: { type: String, required: true },
    digest: { type: String, required: true },
    questionId: { type: String, required: true },
    versionId: { type: String, required: true },
    state: { type: String, required: true, enum: ['PENDING', 'DONE'] },
    createdAt: { type: Date, required: true },
    completedAt: { type: Date, default: null },
  },
  { collection: 'ai_preview_records', versionKey: false, timestamps: false },
);
recordSchema.index({ organizationId: 1, actorId: 1, kind: 1, previewId: 1 }, { unique: true });
// Hard delete of a question frees its previews.
recordSchema.index({ questionId: 1 });

export function aiPreviewModels(conn: Connection): AiPreviewModels {
  return {
    AiPreviewRecord:
      (conn.models.AiPreviewRecord as Model<AiPreviewRecordRow> | undefined) ??
      conn.model('AiPreviewRecord', recordSchema),
  };
}

export type RecordKey = Pick<AiPreviewRecordRow, 'organizationId' | 'actorId' | 'kind' | 'previewId'>;

const keyOf = (k: RecordKey): RecordKey => ({
  organizationId: k.organizationId,
  actorId: k.actorId,
  kind: k.kind,
  previewId: k.previewId,
});

export const findRecord = (m: AiPreviewModels, key: RecordKey) =>
  m.AiPreviewRecord.findOne(keyOf(key)).lean<AiPreviewRecordRow>().exec();

/** Inserts `fresh`, or returns the record that already holds its key (null if that one vanished meanwhile). */
export async function claimRecord(
  m: AiPreviewModels,
  fresh: AiPreviewRecordRow,
): Promise<{ record: AiPreviewRecordRow | null; inserted: boolean }> {
  try {
    await m.AiPreviewRecord.collection.insertOne(fresh as never);
    return { record: fresh, inserted: true };
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    return { record: await findRecord(m, fresh), inserted: false };
  }
}

export async function markRecordDone(m: AiPreviewModels, id: string, at: Date): Promise<void> {
  await m.AiPreviewRecord.collection.updateOne({ _id: id, state: 'PENDING' } as never, {
    $set: { state: 'DONE', completedAt: at },
  });
}

/** Deletes exactly this record (not a newer one that took its key). */
export async function deleteRecord(m: AiPreviewModels, id: string): Promise<void> {
  await m.AiPreviewRecord.collection.deleteOne({ _id: id } as never);
}

export async function deleteRecordsOfQuestions(m: AiPreviewModels, questionIds: string[]): Promise<number> {
  if (questionIds.length === 0) return 0;
  const res = await m.AiPreviewRecord.collection.deleteMany({ questionId: { $in: questionIds } } as never);
  return res.deletedCount;
}
