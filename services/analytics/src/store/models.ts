import { Schema, type Connection, type Model } from 'mongoose';
import { outboxOwnerPlugin, processedEventModel } from '../../../kit/src/data/index.js';

export interface TopicOccurrenceRow {
  topic: string;
  topicId: string | null;
  questionId: string | null;
}

/** One attempt's result projection; `_id` is the attempt id, so an upsert by it is idempotent. */
export interface ResultRow {
  _id: string;
  organizationId: string | null;
  // Flat copies of the references: the list filters and summaries query these.
  studentId: string;
  classroomId: string | null;
  examId: string;
  subjectId: string | null;
  gradeLevel: number | null;
  student: { id: string; fullName: string | null; accountCode: string | null };
  classroom: { id: string; name: string | null } | null;
  exam: { id: string; title: string; subjectId: string | null; gradeLevel: number | null };
  score: number;
  maxScore: number | null;
  scorePercent: number | null;
  correctCount: number;
  wrongCount: number;
  questionCount: number | null;
  durationSeconds: number;
  status: string;
  submissionSource: string | null;
  startedAt: Date | null;
  submittedAt: Date;
  weakTopics: TopicOccurrenceRow[];
  /** Where the projection came from: the graded event (its id) or a PUT snapshot. */
  source: { kind: 'EVENT' | 'SNAPSHOT'; eventId: string | null };
  createdAt: Date;
  updatedAt: Date;
}

/** A service-local analytics event (not an audit log); the payload is kept as JSON text. */
export interface AnalyticsEventRow {
  _id: string;
  type: string;
  actorId: string | null;
  actorRole: string | null;
  organizationId: string | null;
  entity: string | null;
  entityId: string | null;
  studentId: string | null;
  examId: string | null;
  classroomId: string | null;
  attemptId: string | null;
  payloadJson: string;
  occurredAt: Date;
  createdAt: Date;
}

/**
 * A student's weak topics that already alerted (per organization): the outbox owner of
 * `analytics.weak-topic-detected.v1`, moved by compare-and-set on `version`.
 */
export interface AlertStateRow {
  _id: string;
  studentId: string;
  organizationId: string | null;
  alerting: string[];
  version: number;
  lastAttemptId: string | null;
  updatedAt: Date;
}

const str = { type: String, default: null };
const occurrence = new Schema<TopicOccurrenceRow>(
  { topic: { type: String, required: true }, topicId: str, questionId: str },
  { _id: false },
);

const resultSchema = new Schema<ResultRow>(
  {
    _id: { type: String, required: true },
    organizationId: str,
    studentId: { type: String, required: true },
    classroomId: str,
    examId: { type: String, required: true },
    subjectId: str,
    gradeLevel: { type: Number, default: null },
    student: { type: Schema.Types.Mixed, required: true },
    classroom: { type: Schema.Types.Mixed, default: null },
    exam: { type: Schema.Types.Mixed, required: true },
    score: { type: Number, required: true },
    maxScore: { type: Number, default: null },
    scorePercent: { type: Number, default: null },
    correctCount: { type: Number, required: true },
    wrongCount: { type: Number, required: true },
    questionCount: { type: Number, default: null },
    durationSeconds: { type: Number, required: true },
    status: { type: String, required: true },
    submissionSource: str,
    startedAt: { type: Date, default: null },
    submittedAt: { type: Date, required: true },
    weakTopics: { type: [occurrence], default: [] },
    source: { type: Schema.Types.Mixed, required: true },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'results', versionKey: false },
);
// Every list, weak-topic and summary query sorts newest first within one of these references.
resultSchema.index({ submittedAt: -1, _id: 1 });
resultSchema.index({ examId: 1, submittedAt: -1 });
resultSchema.index({ classroomId: 1, submittedAt: -1 });
resultSchema.index({ studentId: 1, organizationId: 1, submittedAt: -1 });
resultSchema.index({ subjectId: 1, gradeLevel: 1, submittedAt: -1 });
resultSchema.index({ 'weakTopics.topic': 1, submittedAt: -1 });

const eventSchema = new Schema<AnalyticsEventRow>(
  {
    _id: { type: String, required: true },
    type: { type: String, required: true },
    actorId: str,
    actorRole: str,
    organizationId: str,
    entity: str,
    entityId: str,
    studentId: str,
    examId: str,
    classroomId: str,
    attemptId: str,
    payloadJson: { type: String, required: true },
    occurredAt: { type: Date, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: 'analytics_events', versionKey: false },
);
eventSchema.index({ occurredAt: -1, _id: -1 });
eventSchema.index({ type: 1, occurredAt: -1 });
eventSchema.index({ entity: 1, entityId: 1, occurredAt: -1 });

const alertStateSchema = new Schema<AlertStateRow>(
  {
    _id: { type: String, required: true },
    studentId: { type: String, required: true },
    organizationId: str,
    alerting: { type: [String], default: [] },
    version: { type: Number, required: true },
    lastAttemptId: str,
    updatedAt: { type: Date, required: true },
  },
  { collection: 'weak_topic_alert_states', versionKey: false },
);
alertStateSchema.plugin(outboxOwnerPlugin);

export interface AnalyticsModels {
  Result: Model<ResultRow>;
  AnalyticsEvent: Model<AnalyticsEventRow>;
  AlertState: Model<AlertStateRow>;
  ProcessedEvent: ReturnType<typeof processedEventModel>;
}

export function analyticsModels(conn: Connection): AnalyticsModels {
  const get = <T>(name: string, schema: Schema<T>) =>
    (conn.models[name] as Model<T> | undefined) ?? conn.model<T>(name, schema);
  return {
    Result: get('Result', resultSchema),
    AnalyticsEvent: get('AnalyticsEvent', eventSchema),
    AlertState: get('AlertState', alertStateSchema),
    ProcessedEvent: processedEventModel(conn),
  };
}
