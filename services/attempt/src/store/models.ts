import { Schema, type Connection, type Model } from 'mongoose';
import { outboxOwnerPlugin } from '../../../kit/src/data/index.js';

export type AttemptStatus = 'IN_PROGRESS' | 'GRADED';
export type SubmissionSource = 'STUDENT' | 'TIMEOUT';
type Json = Record<string, unknown>;

/** One true/false statement's stored answer (the grading's StatementAnswer has the same shape). */
export interface StatementAnswerRow {
  label: string;
  value: boolean | null;
}

/** One answer, stored at the same index as its question in `questions`. */
export interface AnswerRow {
  questionId: string;
  selectedOptionIds: string[];
  statementAnswers: StatementAnswerRow[];
  textAnswer: string | null;
  clientVersion: number;
  serverVersion: number;
  sourceTabId: string | null;
  savedAt: Date | null;
  isCorrect: boolean | null;
  score: number | null;
}

export interface EventRow {
  id: string;
  type: string;
  createdAt: Date;
  metadata: Json;
}

export interface ResultPolicy {
  examTitle: string;
  durationMinutes: number | null;
  showResultMode: 'IMMEDIATE' | 'AFTER_CLOSE' | 'MANUAL';
  closeTime: Date | null;
  resultsReleasedAt: Date | null;
  examStatus: string;
}

/** A question snapshot copied from the start request, with this attempt's option order. */
export interface QuestionRow extends Json {
  questionId: string;
  position: number;
  score: number;
  optionOrder: string[];
}

/**
 * The attempt is one document: its question snapshots, answers and events live inside it, so a
 * save, a submit and the graded event are each one conditional single-document write (atomic on
 * any MongoDB server). `rev` grows on every write: the submit flips the status only if nothing
 * changed since it graded. `activeKey` is `examId\0studentId` while IN_PROGRESS (unique: two
 * concurrent starts produce one attempt) and the attempt id once graded.
 */
export interface AttemptRow {
  _id: string;
  examId: string;
  organizationId: string;
  studentId: string;
  activeKey: string;
  status: AttemptStatus;
  attemptNumber: number;
  accessLinkId: string | null;
  assigned: boolean;
  startedAt: Date;
  deadlineAt: Date | null;
  submittedAt: Date | null;
  submittedBy: string | null;
  submissionSource: SubmissionSource | null;
  durationSeconds: number | null;
  totalScore: number | null;
  maxScore: number;
  correctCount: number | null;
  wrongCount: number | null;
  exam: { id: string; title: string; subjectId: string | null; gradeLevel: number | null };
  classroom: { id: string; name: string | null } | null;
  studentInfo: Json | null;
  resultPolicy: ResultPolicy;
  questions: QuestionRow[];
  answers: AnswerRow[];
  events: EventRow[];
  eventCount: number;
  rev: number;
  createdAt: Date;
  updatedAt: Date;
}

const attemptSchema = new Schema<AttemptRow>(
  {
    _id: { type: String, required: true },
    examId: { type: String, required: true },
    organizationId: { type: String, required: true },
    studentId: { type: String, required: true },
    activeKey: { type: String, required: true },
    status: { type: String, required: true, enum: ['IN_PROGRESS', 'GRADED'] },
    attemptNumber: Number,
    accessLinkId: String,
    assigned: Boolean,
    startedAt: Date,
    deadlineAt: Date,
    submittedAt: Date,
    submittedBy: String,
    submissionSource: String,
    durationSeconds: Number,
    totalScore: Number,
    maxScore: Number,
    correctCount: Number,
    wrongCount: Number,
    exam: Schema.Types.Mixed,
    classroom: Schema.Types.Mixed,
    studentInfo: Schema.Types.Mixed,
    resultPolicy: Schema.Types.Mixed,
    questions: [Schema.Types.Mixed],
    answers: [Schema.Types.Mixed],
    events: [Schema.Types.Mixed],
    eventCount: Number,
    rev: Number,
    createdAt: Date,
    updatedAt: Date,
  },
  { collection: 'attempts', versionKey: false, minimize: false },
);
attemptSchema.plugin(outboxOwnerPlugin);
attemptSchema.index({ activeKey: 1 }, { unique: true });
// Counting a student's attempts at start, and the access link's distinct students.
attemptSchema.index({ examId: 1, studentId: 1 });
attemptSchema.index({ examId: 1, accessLinkId: 1 });
// The sweeper's query: in-progress attempts past their deadline.
attemptSchema.index({ status: 1, deadlineAt: 1 });

export interface AttemptModels {
  Attempt: Model<AttemptRow>;
}

export function attemptModels(conn: Connection): AttemptModels {
  return {
    Attempt: (conn.models.Attempt as Model<AttemptRow> | undefined) ?? conn.model('Attempt', attemptSchema),
  };
}
