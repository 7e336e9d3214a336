import { Schema, type Connection, type Model } from 'mongoose';

export const INGEST_STATES = ['PENDING', 'COMPLETE'] as const;
export type IngestState = (typeof INGEST_STATES)[number];

export interface IngestPlan {
  questions: Array<{ sourceId: string; questionId: string; versionId: string }>;
  groups: Array<{ sourceGroupId: string; groupId: string }>;
}

/**
 * The DOCX ingest ledger: one row per import, written PENDING with every id the import will use
 * before any other row, then COMPLETE after the last. A retry finds it by identity and resumes
 * with the same ids, so the rows it writes are the same rows.
 */
export interface IngestLedgerRow {
  _id: string;
  organizationId: string;
  createdById: string;
  /** `key:<Idempotency-Key>`, `job:<sourceImportJobId>`, or `digest:<digest>` when neither. */
  identities: string[];
  idempotencyKey: string | null;
  sourceImportJobId: string | null;
  digest: string;
  documentId: string;
  state: IngestState;
  plan: IngestPlan;
  /** Requests that found the ledger PENDING and resumed it. */
  resumes: number;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

export interface IngestModels {
  IngestLedger: Model<IngestLedgerRow>;
}

const ledgerSchema = new Schema<IngestLedgerRow>(
  {
    _id: { type: String, required: true },
    organizationId: { type: String, required: true },
    createdById: { type: String, required: true },
    identities: { type: [String], required: true },
    idempotencyKey: { type: String, default: null },
    sourceImportJobId: { type: String, default: null },
    digest: { type: String, required: true },
    documentId: { type: String, required: true },
    state: { type: String, required: true, enum: INGEST_STATES },
    plan: { type: Schema.Types.Mixed, required: true },
    resumes: { type: Number, default: 0 },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    completedAt: { type: Date, default: null },
  },
  { collection: 'question_ingest_ledgers', versionKey: false },
);
// Multikey and unique: one insert claims the key and the job together; no two imports of one
// organization share either.
ledgerSchema.index({ organizationId: 1, identities: 1 }, { unique: true });
ledgerSchema.index({ organizationId: 1, sourceImportJobId: 1 });
ledgerSchema.index({ state: 1, createdAt: 1 });

export function ingestModels(conn: Connection): IngestModels {
  return {
    IngestLedger:
      (conn.models.IngestLedger as Model<IngestLedgerRow> | undefined) ?? conn.model('IngestLedger', ledgerSchema),
  };
}
