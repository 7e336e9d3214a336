import { Schema, type Connection, type Model } from 'mongoose';
import { CORE_TYPES, type CoreType } from './question-models.js';

export { CORE_TYPES, type CoreType };

export const FOLDER_VISIBILITIES = ['PRIVATE', 'ORGANIZATION', 'SHARED_LIBRARY', 'PUBLIC'] as const;
export const TYPE_STATUSES = ['ACTIVE', 'ARCHIVED'] as const;
export const TAXONOMY_KINDS = [
  'SUBJECT',
  'CHAPTER',
  'TOPIC',
  'EDUCATION_LEVEL',
  'GRADE',
  'CURRICULUM',
  'CURRICULUM_NODE',
  'EXAM_TRACK',
  'QUESTION_SOURCE',
  'DIFFICULTY_LEVEL',
] as const;
export type TaxonomyKind = (typeof TAXONOMY_KINDS)[number];

export interface QuestionGroupRow {
  _id: string;
  organizationId: string;
  createdById: string;
  title: string;
  contentText: string;
  // Free-form JSON is stored serialised: any key a client sends (NUL, a leading $, dots) is then
  // storable, and no stored document can be read as a query operator.
  contentJson: string | null;
  mediaJson: string | null;
  sourceMetadataJson: string | null;
  /** title and content folded (lower case, no diacritics) for `q`. */
  searchText: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface QuestionFolderRow {
  _id: string;
  organizationId: string;
  createdById: string;
  name: string;
  parentId: string | null;
  visibility: (typeof FOLDER_VISIBILITIES)[number];
  createdAt: Date;
  updatedAt: Date;
}

export interface QuestionTypeRow {
  _id: string;
  /** null: the scope without X-Organization-Id. */
  organizationId: string | null;
  /** null for system definitions. */
  createdById: string | null;
  code: string;
  name: string;
  baseType: CoreType;
  isSystem: boolean;
  status: (typeof TYPE_STATUSES)[number];
  usageCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface TaxonomyRefRow {
  _id: string;
  kind: TaxonomyKind;
  code: string;
  name: string;
  /** null: a global ref, listed with includeGlobal=1. */
  organizationId: string | null;
  status: string;
  numericLevel?: number | null;
  engineDifficulty?: string | null;
  /** A CURRICULUM_NODE's subject, grade and curriculum (each the id or code of that ref). */
  subjectId?: string | null;
  gradeId?: string | null;
  curriculumId?: string | null;
  /** code and name folded (lower case, no diacritics) for `q`. */
  searchText: string;
  updatedAt: Date;
}

export interface UsageCountRow {
  _id: string;
  organizationId: string | null;
  examItems: number;
  attemptItems: number;
  answers: number;
  updatedAt: Date;
}

export interface UserRefRow {
  _id: string;
  fullName: string;
  email: string;
  organizationId: string | null;
  updatedAt: Date;
}

export interface OrganizationRefRow {
  _id: string;
  name: string;
  slug: string;
  organizationId: string | null;
  updatedAt: Date;
}

export interface ExamRefRow {
  /** `${examId}|${questionId}`: `|` never occurs in an id, so the pair is unambiguous. */
  _id: string;
  questionId: string;
  examId: string;
  title: string;
  status: string;
  createdAt: Date;
  organizationId: string | null;
  updatedAt: Date;
}

export interface CatalogModels {
  QuestionGroup: Model<QuestionGroupRow>;
  QuestionFolder: Model<QuestionFolderRow>;
  QuestionTypeDefinition: Model<QuestionTypeRow>;
  TaxonomyRef: Model<TaxonomyRefRow>;
  UsageCount: Model<UsageCountRow>;
  UserRef: Model<UserRefRow>;
  OrganizationRef: Model<OrganizationRefRow>;
  ExamRef: Model<ExamRefRow>;
}

const nullableString = { type: String, default: null };

const groupSchema = new Schema<QuestionGroupRow>(
  {
    _id: { type: String, required: true },
    organizationId: { type: String, required: true },
    createdById: { type: String, required: true },
    title: { type: String, required: true },
    contentText: { type: String, required: true },
    contentJson: nullableString,
    mediaJson: nullableString,
    sourceMetadataJson: nullableString,
    searchText: { type: String, required: true },
  },
  { timestamps: true, versionKey: false, minimize: false },
);
// The list: organization (and owner for non-admins), newest first.
groupSchema.index({ organizationId: 1, createdAt: -1, _id: -1 });
groupSchema.index({ organizationId: 1, createdById: 1, createdAt: -1, _id: -1 });

const folderSchema = new Schema<QuestionFolderRow>(
  {
    _id: { type: String, required: true },
    organizationId: { type: String, required: true },
    createdById: { type: String, required: true },
    name: { type: String, required: true },
    parentId: nullableString,
    visibility: { type: String, required: true, enum: FOLDER_VISIBILITIES },
  },
  { timestamps: true, versionKey: false },
);
folderSchema.index({ organizationId: 1, name: 1, _id: 1 });
// Empty-only delete counts children by parent.
folderSchema.index({ parentId: 1 });

const typeSchema = new Schema<QuestionTypeRow>(
  {
    _id: { type: String, required: true },
    organizationId: nullableString,
    createdById: nullableString,
    code: { type: String, required: true },
    name: { type: String, required: true },
    baseType: { type: String, required: true, enum: CORE_TYPES },
    isSystem: { type: Boolean, required: true },
    status: { type: String, required: true, enum: TYPE_STATUSES },
    usageCount: { type: Number, required: true, default: 0 },
  },
  { timestamps: true, versionKey: false },
);
// One code per (organization, owner); system definitions have no owner, so seeding is idempotent.
typeSchema.index({ organizationId: 1, createdById: 1, code: 1 }, { unique: true });

const taxonomySchema = new Schema<TaxonomyRefRow>(
  {
    _id: { type: String, required: true },
    kind: { type: String, required: true, enum: TAXONOMY_KINDS },
    code: { type: String, required: true },
    name: { type: String, required: true },
    organizationId: nullableString,
    status: { type: String, required: true },
    numericLevel: { type: Number, default: null },
    engineDifficulty: nullableString,
    subjectId: nullableString,
    gradeId: nullableString,
    curriculumId: nullableString,
    searchText: { type: String, default: '' },
  },
  { timestamps: { createdAt: false, updatedAt: true }, versionKey: false },
);
taxonomySchema.index({ organizationId: 1, kind: 1, code: 1 });

const usageSchema = new Schema<UsageCountRow>(
  {
    _id: { type: String, required: true },
    organizationId: nullableString,
    examItems: { type: Number, required: true, min: 0 },
    attemptItems: { type: Number, required: true, min: 0 },
    answers: { type: Number, required: true, min: 0 },
  },
  { timestamps: { createdAt: false, updatedAt: true }, versionKey: false },
);

const userRefSchema = new Schema<UserRefRow>(
  {
    _id: { type: String, required: true },
    fullName: { type: String, required: true },
    email: { type: String, required: true },
    organizationId: nullableString,
  },
  { timestamps: { createdAt: false, updatedAt: true }, versionKey: false },
);

const orgRefSchema = new Schema<OrganizationRefRow>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    slug: { type: String, required: true },
    organizationId: nullableString,
  },
  { timestamps: { createdAt: false, updatedAt: true }, versionKey: false },
);

const examRefSchema = new Schema<ExamRefRow>(
  {
    _id: { type: String, required: true },
    questionId: { type: String, required: true },
    examId: { type: String, required: true },
    title: { type: String, required: true },
    status: { type: String, required: true },
    createdAt: { type: Date, required: true },
    organizationId: nullableString,
  },
  { timestamps: { createdAt: false, updatedAt: true }, versionKey: false },
);
examRefSchema.index({ questionId: 1 });

/** The catalogue's models on the service's connection (idempotent: reuses registered models). */
export function catalogModels(conn: Connection): CatalogModels {
  const model = <T>(name: string, schema: Schema<T>, collection: string): Model<T> =>
    (conn.models[name] as Model<T> | undefined) ?? conn.model<T>(name, schema, collection);
  return {
    QuestionGroup: model('QuestionGroup', groupSchema, 'question_groups'),
    QuestionFolder: model('QuestionFolder', folderSchema, 'question_folders'),
    QuestionTypeDefinition: model('QuestionTypeDefinition', typeSchema, 'question_type_definitions'),
    TaxonomyRef: model('TaxonomyRef', taxonomySchema, 'taxonomy_refs'),
    UsageCount: model('UsageCount', usageSchema, 'usage_counts'),
    UserRef: model('UserRef', userRefSchema, 'user_refs'),
    OrganizationRef: model('OrganizationRef', orgRefSchema, 'organization_refs'),
    ExamRef: model('ExamRef', examRefSchema, 'exam_refs'),
  };
}
