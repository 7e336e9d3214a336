// Pure: the search projection of a question: a copy without answer keys, scoring, explanation,
// access credentials or raw source metadata (kafka/schemas/search.projection.changed.v1.json).
import { TAXONOMY_FIELDS, type QuestionRow } from '../../store/question-models.js';

export const SOURCE_SERVICE = 'question-bank-service';

export interface SearchDocument extends Record<string, unknown> {
  id: string;
  organizationId: string;
}

const NULLABLE_IDS = [
  'customTypeId',
  ...TAXONOMY_FIELDS,
  'folderId',
  'groupId',
  'sourceTeacherId',
  'createdById',
] as const;

// The event schema names no organization-less questions; they project under this id.
export const NO_ORGANIZATION = 'global';

function stripQuery(url: string | null): string | null {
  // Signed URLs carry their credentials in the query string: never copied.
  return url ? url.split(/[?#]/)[0]! : null;
}

export function searchDocument(row: QuestionRow): SearchDocument {
  const doc: SearchDocument = {
    id: row._id,
    organizationId: row.organizationId ?? NO_ORGANIZATION,
    content: row.content,
    ...(row.contentJson === null || row.contentJson === undefined ? {} : { contentJson: row.contentJson }),
    type: row.type,
    subjectId: row.subjectId,
    gradeLevel: row.gradeLevel,
    difficulty: row.difficulty,
    sourceType: row.sourceType,
    source: row.source,
    visibility: row.visibility,
    status: row.status,
    sourceUrl: stripQuery(row.sourceUrl),
    currentVersionId: row.currentVersionId ?? row._id,
    options: row.options.map((o) => ({
      id: o.id,
      label: o.label,
      content: o.content,
      ...(o.contentJson === undefined ? {} : { contentJson: o.contentJson }),
    })),
    mediaRefs: row.mediaRefs.map((m) => ({ ...m, ...(m.url ? { url: stripQuery(m.url)! } : {}) })),
    formulaRefs: row.formulaRefs,
    tags: row.tags,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
  if (row.subItems) doc.subItems = row.subItems.map((s) => ({ label: s.label, content: s.content }));
  for (const f of NULLABLE_IDS) doc[f] = row[f] || null;
  return doc;
}

export interface ProjectionChange {
  questionId: string;
  organizationId: string;
  sourceService: typeof SOURCE_SERVICE;
  entityType: 'QUESTION';
  sourceVersion: number;
  operation: 'UPSERT' | 'DELETE';
  document: SearchDocument | null;
}

export function upsertChange(row: QuestionRow): ProjectionChange {
  return {
    questionId: row._id,
    organizationId: row.organizationId ?? NO_ORGANIZATION,
    sourceService: SOURCE_SERVICE,
    entityType: 'QUESTION',
    sourceVersion: row.searchVersion,
    operation: 'UPSERT',
    document: searchDocument(row),
  };
}

export function tombstoneChange(row: Pick<QuestionRow, '_id' | 'organizationId' | 'searchVersion'>): ProjectionChange {
  return {
    questionId: row._id,
    organizationId: row.organizationId ?? NO_ORGANIZATION,
    sourceService: SOURCE_SERVICE,
    entityType: 'QUESTION',
    sourceVersion: row.searchVersion,
    operation: 'DELETE',
    document: null,
  };
}
