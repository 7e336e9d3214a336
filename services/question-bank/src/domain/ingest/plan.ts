// Pure: the ids an ingest will use (planned once, stored in the ledger) and every row it writes,
// rebuilt identically from the request and the ledger on each resume.
import type { IngestLedgerRow, IngestPlan } from '../../store/ingest-models.js';
import type { QuestionBody, QuestionRow, QuestionVersionRow, TaxonomyField } from '../../store/question-models.js';
import { TAXONOMY_FIELDS } from '../../store/question-models.js';
import type { QuestionGroupRow } from '../../store/catalog-models.js';
import { normalizeTags } from '../questions/body.js';
import { publishProblems } from '../questions/base-type.js';
import { tokensOf, versionOf } from '../questions/rows.js';
import { answerPart, scoringRuleOf } from './answers.js';
import { formulaRefsOf, mediaRefsOf, richDocOf } from './content.js';
import { groupingOf, groupRows, passageGroups } from './groups.js';
import { decideType } from './type-map.js';
import type { IngestInput, IngestQuestion, IngestWarning } from './types.js';

export const IMPORT_SOURCE = 'docx-import';
export const IMPORT_SOURCE_LABEL = 'DOCX import';

export function planIds(input: IngestInput, newId: () => string): IngestPlan {
  return {
    questions: input.questions.map((q) => ({ sourceId: q.id, questionId: newId(), versionId: newId() })),
    groups: passageGroups(input).map((g) => ({ sourceGroupId: g.group_id, groupId: newId() })),
  };
}

export interface QuestionSummary {
  sourceQuestionId: string;
  questionId: string;
  type: string;
  groupId: string | null;
  publishable: boolean;
}

export interface IngestRows {
  groups: QuestionGroupRow[];
  questions: QuestionRow[];
  versions: QuestionVersionRow[];
  summaries: QuestionSummary[];
  warnings: IngestWarning[];
}

type Ledger = Pick<IngestLedgerRow, '_id' | 'organizationId' | 'createdById' | 'createdAt' | 'plan' | 'documentId'>;

/** What every imported row records about where it came from (document, job, file). */
export function sourceOf(input: IngestInput): Record<string, unknown> {
  return {
    source: IMPORT_SOURCE,
    documentId: input.document_id,
    sourceImportJobId: input.sourceImportJobId ?? null,
    sourceFileName: input.sourceFileName ?? null,
  };
}

function bodyOf(q: IngestQuestion, type: QuestionRow['type'], versionId: string) {
  const mediaRefs = mediaRefsOf(q.media, versionId);
  const formulaRefs = formulaRefsOf(q.formulas, versionId);
  const refs = { media: mediaRefs, formulas: formulaRefs };
  const answers = answerPart(q, type, versionId);
  const solution = q.solution?.trim() ? q.solution : null;
  const body: QuestionBody = {
    content: q.content,
    contentJson: richDocOf(q.content, refs),
    explanation: solution,
    explanationJson: solution ? richDocOf(solution, refs) : null,
    answerKeys: answers.answerKeys,
    scoringRule: scoringRuleOf(type, q.points),
    subItems: answers.subItems,
    options: answers.options,
    mediaRefs,
    formulaRefs,
  };
  return { body, answers };
}

interface Context {
  input: IngestInput;
  ledger: Ledger;
  groupings: (q: IngestQuestion) => ReturnType<typeof groupingOf>;
}

function questionMeta(ctx: Context, q: IngestQuestion, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    ...(ctx.input.sourceMetadataJson ?? {}),
    ...sourceOf(ctx.input),
    ingestId: ctx.ledger._id,
    sourceQuestionId: q.id,
    number: q.number ?? null,
    part: q.part ?? null,
    points: q.points ?? null,
    typeConfidence: q.type_confidence ?? null,
    reviewReason: q.review_reason ?? null,
    sourceLocation: q.source_location ?? null,
    ...extra,
  };
}

function questionRow(ctx: Context, q: IngestQuestion, ids: IngestPlan['questions'][number]) {
  const decision = decideType(q);
  const { body, answers } = bodyOf(q, decision.type, ids.versionId);
  const grouping = ctx.groupings(q);
  const problems = publishProblems(decision.type, body);
  const warnings = [...answers.warnings];
  if (decision.inferred)
    warnings.push({ code: 'INGEST_TYPE_INFERRED', message: `type ${decision.type} from shape`, question_id: q.id });
  if (problems.length > 0)
    warnings.push({ code: 'INGEST_NOT_PUBLISHABLE', message: problems[0]!.message, question_id: q.id });
  const meta = questionMeta(ctx, q, {
    sourceTypeCode: decision.sourceCode,
    typeInferred: decision.inferred,
    grouping: grouping.meta,
    ...(answers.extraSubItems.length > 0 ? { extraSubItems: answers.extraSubItems } : {}),
    publishProblems: problems,
    importWarnings: warnings.map((w) => w.code),
  });
  const taxonomy = Object.fromEntries(TAXONOMY_FIELDS.map((f) => [f, null])) as Record<TaxonomyField, null>;
  const row: QuestionRow = {
    _id: ids.questionId,
    organizationId: ctx.ledger.organizationId,
    createdById: ctx.ledger.createdById,
    status: 'DRAFT',
    type: decision.type,
    customTypeId: null,
    subjectId: ctx.input.subjectId ?? 'math',
    gradeLevel: ctx.input.gradeLevel ?? 12,
    difficulty: 'MEDIUM',
    sourceType: 'IMPORTED',
    source: IMPORT_SOURCE_LABEL,
    visibility: 'PRIVATE',
    folderId: null,
    groupId: grouping.groupId,
    sourceUrl: null,
    sourceTeacherId: null,
    sourceMetadataJson: meta,
    tags: normalizeTags(ctx.input.tags),
    currentVersionId: ids.versionId,
    versionNumber: 1,
    searchVersion: 1,
    searchTokens: [],
    removedAt: null,
    createdAt: ctx.ledger.createdAt,
    updatedAt: ctx.ledger.createdAt,
    ...taxonomy,
    ...body,
  };
  row.searchTokens = tokensOf(row);
  const summary = { sourceQuestionId: q.id, questionId: row._id, type: row.type, groupId: row.groupId };
  return { row, warnings, summary: { ...summary, publishable: problems.length === 0 } };
}

export function buildRows(input: IngestInput, ledger: Ledger): IngestRows {
  const bySource = new Map((input.groups ?? []).map((g) => [g.group_id, g]));
  const rowIds = new Map(ledger.plan.groups.map((g) => [g.sourceGroupId, g.groupId]));
  const ctx: Context = { input, ledger, groupings: (q) => groupingOf(bySource, rowIds, q.group_id) };
  const writer = { userId: ledger.createdById, role: 'TEACHER' as const, organizationId: ledger.organizationId };
  const built = input.questions.map((q, i) => questionRow(ctx, q, ledger.plan.questions[i]!));
  const groups = groupRows(input, ledger.plan, {
    ingestId: ledger._id,
    organizationId: ledger.organizationId,
    createdById: ledger.createdById,
    createdAt: ledger.createdAt,
    source: sourceOf(input),
  });
  return {
    groups,
    questions: built.map((b) => b.row),
    versions: built.map((b) => versionOf(b.row, writer, ledger.createdAt)),
    summaries: built.map((b) => b.summary),
    warnings: built.flatMap((b) => b.warnings),
  };
}
