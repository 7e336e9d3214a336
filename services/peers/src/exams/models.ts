import { Schema, type Connection, type Model } from 'mongoose';

export interface ExamRow {
  _id: string;
  organizationId: string;
  createdBy?: string;
  title: string;
  subjectId?: string;
  gradeLevel?: number;
  durationMinutes: number;
  status: 'DRAFT';
  questionSnapshots: Record<string, unknown>[];
  snapshotsUpdatedAt?: Date;
  createdAt: Date;
}

export function examModel(conn: Connection): Model<ExamRow> {
  const schema = new Schema<ExamRow>(
    {
      _id: { type: String, required: true },
      organizationId: { type: String, required: true, index: true },
      createdBy: String,
      title: { type: String, required: true },
      subjectId: String,
      gradeLevel: Number,
      durationMinutes: { type: Number, required: true },
      status: { type: String, required: true },
      questionSnapshots: { type: Schema.Types.Mixed, default: [] },
      snapshotsUpdatedAt: Date,
      createdAt: { type: Date, required: true },
    },
    { collection: 'exams', versionKey: false, minimize: false },
  );
  return conn.model<ExamRow>('Exam', schema);
}

export function examView(row: ExamRow): Record<string, unknown> {
  return {
    id: row._id,
    organizationId: row.organizationId,
    createdBy: row.createdBy ?? null,
    title: row.title,
    subjectId: row.subjectId ?? null,
    gradeLevel: row.gradeLevel ?? null,
    durationMinutes: row.durationMinutes,
    status: row.status,
    questionSnapshots: row.questionSnapshots,
    snapshotsUpdatedAt: row.snapshotsUpdatedAt ?? null,
    createdAt: row.createdAt,
  };
}
