// Pure: the fields AI classification reads and writes, and what "missing" means for each.
import type { TaxonomyKind } from '../../store/catalog-models.js';
import type { QuestionRow } from '../../store/question-models.js';

export const DIRECT_FIELDS = [
  'type',
  'customTypeId',
  'subjectId',
  'educationLevelId',
  'gradeId',
  'curriculumId',
  'curriculumNodeId',
  'examTrackId',
  'questionSourceId',
  'difficultyLevelId',
] as const;
export type DirectField = (typeof DIRECT_FIELDS)[number];

/** The taxonomy family each reference field resolves in. */
export const REF_KIND = {
  subjectId: 'SUBJECT',
  educationLevelId: 'EDUCATION_LEVEL',
  gradeId: 'GRADE',
  curriculumId: 'CURRICULUM',
  curriculumNodeId: 'CURRICULUM_NODE',
  examTrackId: 'EXAM_TRACK',
  questionSourceId: 'QUESTION_SOURCE',
  difficultyLevelId: 'DIFFICULTY_LEVEL',
} as const satisfies Partial<Record<DirectField, TaxonomyKind>>;
export type RefField = keyof typeof REF_KIND;

export const isRefField = (f: DirectField): f is RefField => f in REF_KIND;

// The same three refs as the list's `unclassifiedOnly` (domain/questions/filters.ts), so a row
// the list calls unclassified is one the context returns.
export const REQUIRED_REFS = ['gradeId', 'curriculumNodeId', 'difficultyLevelId'] as const;

/** Where the legacy deterministic difficulty sync marks the difficulty it derived. */
export const DIFFICULTY_SOURCE = 'difficultySource';
export const LEGACY_DIFFICULTY = 'LEGACY_DETERMINISTIC_SYNC';
export const AI_DIFFICULTY = 'AI_CLASSIFICATION';

export type ClassifiedRow = Pick<QuestionRow, DirectField | 'sourceMetadataJson'>;

export const legacyDifficulty = (row: ClassifiedRow): boolean =>
  row.sourceMetadataJson?.[DIFFICULTY_SOURCE] === LEGACY_DIFFICULTY;

/** A legacy-synced difficulty counts as missing: the classifier is asked to redo it. */
export function isMissing(row: ClassifiedRow, field: DirectField): boolean {
  if (field === 'difficultyLevelId' && legacyDifficulty(row)) return true;
  const v = row[field];
  return v === null || v === undefined || v === '';
}

/** onlyUnclassified: a required ref (among the requested fields) is missing, or the difficulty is legacy. */
export function isUnclassified(row: ClassifiedRow, fields: readonly DirectField[]): boolean {
  if (legacyDifficulty(row)) return true;
  return REQUIRED_REFS.some((f) => fields.includes(f) && isMissing(row, f));
}

/** The fields the classifier should fill: all requested with overwrite, else only the missing ones. */
export function targetFields(row: ClassifiedRow, fields: readonly DirectField[], overwrite: boolean): DirectField[] {
  return overwrite ? [...fields] : fields.filter((f) => isMissing(row, f));
}

/** `mode: all` forces overwrite; otherwise the request's flag (default false). */
export const effectiveOverwrite = (mode: 'missing' | 'all', overwrite?: boolean): boolean =>
  mode === 'all' || overwrite === true;
