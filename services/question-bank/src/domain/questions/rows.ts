// Pure: whole question rows and versions from inputs (create defaults, PATCH merge).
import { AppError } from '../../../../kit/src/core/index.js';
import { MSG } from '../../messages.js';
import {
  TAXONOMY_FIELDS,
  type CoreType,
  type QuestionBody,
  type QuestionRow,
  type QuestionVersionRow,
} from '../../store/question-models.js';
import { searchTokens } from '../search-text.js';
import { publishProblems } from './base-type.js';
import { canonical, newBody, normalizeTags, type QuestionInput } from './body.js';
import type { Writer } from './scope.js';

const SCALARS = [
  'status',
  'type',
  'customTypeId',
  'subjectId',
  'gradeLevel',
  'difficulty',
  'sourceType',
  'source',
  'visibility',
  'sourceUrl',
  'sourceTeacherId',
  'folderId',
  'groupId',
  'sourceMetadataJson',
  ...TAXONOMY_FIELDS,
] as const;

// The contract's create defaults.
const DEFAULTS = {
  status: 'DRAFT',
  type: 'SINGLE_CHOICE',
  subjectId: 'math',
  gradeLevel: 12,
  difficulty: 'MEDIUM',
  sourceType: 'MANUAL',
  visibility: 'PRIVATE',
} as const;

export interface Ids {
  newId: () => string;
  now: Date;
}

function fileNameOf(meta: Record<string, unknown> | null): string | null {
  const name = meta?.sourceFileName ?? meta?.fileName;
  return typeof name === 'string' ? name : null;
}

export function tokensOf(row: Pick<QuestionRow, 'content' | 'source' | 'sourceMetadataJson' | 'tags'>): string[] {
  return searchTokens([row.content, row.source, fileNameOf(row.sourceMetadataJson), ...row.tags]);
}

/** Empty strings clear an optional scalar (stored as null). */
function scalarsOf(input: QuestionInput): Partial<QuestionRow> {
  const out: Record<string, unknown> = {};
  for (const f of SCALARS) {
    if (input[f] !== undefined) out[f] = input[f] === '' ? null : input[f];
  }
  return out as Partial<QuestionRow>;
}

export function assertPublishable(
  row: { status: string; type: CoreType },
  body: QuestionBody,
  code = 'QUESTION_PUBLISH_CONFLICT',
): void {
  if (row.status !== 'PUBLISHED') return;
  const problems = publishProblems(row.type, body);
  if (problems.length > 0) throw new AppError(code, MSG.notPublishable, { details: problems });
}

export function versionOf(row: QuestionRow, writer: Writer, at: Date): QuestionVersionRow {
  return {
    _id: row.currentVersionId!,
    questionId: row._id,
    organizationId: row.organizationId,
    versionNumber: row.versionNumber,
    createdById: writer.userId,
    createdAt: at,
    content: row.content,
    contentJson: row.contentJson,
    explanation: row.explanation,
    explanationJson: row.explanationJson,
    answerKeys: row.answerKeys,
    scoringRule: row.scoringRule,
    subItems: row.subItems,
    options: row.options,
    mediaRefs: row.mediaRefs,
    formulaRefs: row.formulaRefs,
  };
}

export function newQuestionRow(raw: QuestionInput, writer: Writer, ids: Ids): QuestionRow {
  const input = canonical(raw);
  const body = newBody(input, ids.newId);
  const nulls = Object.fromEntries(SCALARS.map((f) => [f, null]));
  const row = {
    ...nulls,
    ...DEFAULTS,
    ...scalarsOf(input),
    ...body,
    _id: ids.newId(),
    organizationId: writer.organizationId,
    createdById: writer.userId,
    tags: normalizeTags(input.tags),
    currentVersionId: ids.newId(),
    versionNumber: 1,
    searchVersion: 1,
    searchTokens: [] as string[],
    removedAt: null,
    createdAt: ids.now,
    updatedAt: ids.now,
  } as QuestionRow;
  row.searchTokens = tokensOf(row);
  assertPublishable(row, body);
  return row;
}
