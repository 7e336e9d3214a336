import { Schema, type Connection, type Model, type SchemaDefinition } from 'mongoose';
import { outboxOwnerPlugin } from '../../../kit/src/data/index.js';

export const QUESTION_STATUSES = ['DRAFT', 'PUBLISHED', 'ARCHIVED'] as const;
export type QuestionStatus = (typeof QUESTION_STATUSES)[number];

export const CORE_TYPES = [
  'SINGLE_CHOICE',
  'MULTIPLE_CHOICE',
  'TRUE_FALSE',
  'TRUE_FALSE_GROUP',
  'SHORT_ANSWER',
  'SHORT_NUMERIC_ANSWER',
  'ESSAY',
  'PASSAGE_READING',
] as const;
export type CoreType = (typeof CORE_TYPES)[number];

/** The question body a version carries (and a removed question's shell clears). */
export const VERSION_BODY_FIELDS = [
  'content',
  'contentJson',
  'explanation',
  'explanationJson',
  'answerKeys',
  'scoringRule',
  'subItems',
  'options',
  'mediaRefs',
  'formulaRefs',
] as const;

export const TAXONOMY_FIELDS = [
  'educationLevelId',
  'gradeId',
  'curriculumId',
  'curriculumNodeId',
  'examTrackId',
  'questionSourceId',
  'difficultyLevelId',
  'chapterId',
  'topicId',
] as const;
export type TaxonomyField = (typeof TAXONOMY_FIELDS)[number];

export interface OptionRow {
  id: string;
  label: string;
  content: string;
  contentJson?: unknown;
  isCorrect: boolean;
}

export interface MediaRefRow {
  id: string;
  mediaAssetId?: string;
  url?: string;
  kind?: string;
  mimeType?: string;
  alt?: string;
  width?: number;
  height?: number;
}

export interface FormulaRefRow {
  id: string;
  latex?: string;
  html?: string;
  mathml?: string;
}

export interface SubItemRow {
  label: 'A' | 'B' | 'C' | 'D';
  content: string;
  correctBoolean: boolean;
}

/** What a version snapshots (and the question row mirrors for the current version). */
export interface QuestionBody {
  content: string;
  contentJson: unknown;
  explanation: string | null;
  explanationJson: unknown;
  answerKeys: unknown;
  scoringRule: unknown;
  subItems: SubItemRow[] | null;
  options: OptionRow[];
  mediaRefs: MediaRefRow[];
  formulaRefs: FormulaRefRow[];
}

/**
 * The canonical question and the outbox owner of its search events. A removed question stays as
 * a shell (`removedAt` set, content cleared) so its tombstone event rides on the same document
 * as every earlier event of that question: the kit orders events per owner document.
 */
export interface QuestionRow extends QuestionBody, Record<TaxonomyField, string | null> {
  _id: string;
  id?: string;
  organizationId: string | null;
  createdById: string | null;
  status: QuestionStatus;
  type: CoreType;
  customTypeId: string | null;
  subjectId: string;
  gradeLevel: number;
  difficulty: string;
  sourceType: string;
  source: string | null;
  visibility: string;
  folderId: string | null;
  groupId: string | null;
  sourceUrl: string | null;
  sourceTeacherId: string | null;
  sourceMetadataJson: Record<string, unknown> | null;
  tags: string[];
  currentVersionId: string | null;
  versionNumber: number;
  /** The last search event's `sourceVersion`; every write moves it by one (compare-and-set). */
  searchVersion: number;
  /** Folded (lower-case, no diacritics) words of content, source, file name and tags: `q` uses its index. */
  searchTokens: string[];
  removedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface QuestionVersionRow extends QuestionBody {
  _id: string;
  questionId: string;
  organizationId: string | null;
  versionNumber: number;
  createdById: string | null;
  createdAt: Date;
}

export interface QuestionModels {
  Question: Model<QuestionRow>;
  QuestionVersion: Model<QuestionVersionRow>;
}

const mixed = { type: Schema.Types.Mixed, default: null };
const nullableString = { type: String, default: null };

const body = {
  content: { type: String, default: '' },
  contentJson: mixed,
  explanation: nullableString,
  explanationJson: mixed,
  answerKeys: mixed,
  scoringRule: mixed,
  subItems: mixed,
  options: { type: [Schema.Types.Mixed], default: [] },
  mediaRefs: { type: [Schema.Types.Mixed], default: [] },
  formulaRefs: { type: [Schema.Types.Mixed], default: [] },
};

const taxonomy = Object.fromEntries(TAXONOMY_FIELDS.map((f) => [f, nullableString]));

const questionSchema = new Schema<QuestionRow>(
  {
    _id: { type: String, required: true },
    organizationId: nullableString,
    createdById: nullableString,
    status: { type: String, required: true, enum: QUESTION_STATUSES },
    type: { type: String, required: true, enum: CORE_TYPES },
    customTypeId: nullableString,
    subjectId: { type: String, required: true },
    gradeLevel: { type: Number, required: true },
    difficulty: { type: String, required: true },
    sourceType: { type: String, required: true },
    source: nullableString,
    visibility: { type: String, required: true },
    folderId: nullableString,
    groupId: nullableString,
    sourceUrl: nullableString,
    sourceTeacherId: nullableString,
    sourceMetadataJson: mixed,
    tags: { type: [String], default: [] },
    currentVersionId: nullableString,
    versionNumber: { type: Number, default: 0 },
    searchVersion: { type: Number, default: 0 },
    searchTokens: { type: [String], default: [] },
    removedAt: { type: Date, default: null },
    ...taxonomy,
    ...body,
  } as SchemaDefinition,
  { collection: 'questions', versionKey: false, timestamps: false },
);
questionSchema.plugin(outboxOwnerPlugin);
// The list's scope and order: organization (+ owner), live rows, newest first.
questionSchema.index({ organizationId: 1, removedAt: 1, createdAt: -1, _id: -1 });
questionSchema.index({ organizationId: 1, createdById: 1, removedAt: 1, createdAt: -1 });
questionSchema.index({ removedAt: 1, createdAt: -1, _id: -1 });
// Blueprint selection: PUBLISHED rows of an organization, newest first (drafts never scanned).
questionSchema.index({ organizationId: 1, status: 1, removedAt: 1, createdAt: -1, _id: -1 });
// `q`: multikey index over folded words (mongo-java-server has no $text).
questionSchema.index({ searchTokens: 1 });
questionSchema.index({ folderId: 1 });
questionSchema.index({ groupId: 1 });
questionSchema.index({ customTypeId: 1 });
questionSchema.index({ 'sourceMetadataJson.clonedFromQuestionId': 1 });

const versionSchema = new Schema<QuestionVersionRow>(
  {
    _id: { type: String, required: true },
    questionId: { type: String, required: true },
    organizationId: nullableString,
    versionNumber: { type: Number, required: true },
    createdById: nullableString,
    createdAt: { type: Date, required: true },
    ...body,
  } as SchemaDefinition,
  { collection: 'question_versions', versionKey: false },
);
versionSchema.index({ questionId: 1, versionNumber: 1 }, { unique: true });

/** The question models on the service's connection (idempotent: reuses registered models). */
export function questionModels(conn: Connection): QuestionModels {
  return {
    Question: (conn.models.Question as Model<QuestionRow> | undefined) ?? conn.model('Question', questionSchema),
    QuestionVersion:
      (conn.models.QuestionVersion as Model<QuestionVersionRow> | undefined) ??
      conn.model('QuestionVersion', versionSchema),
  };
}
