import { AppError } from '../../../../kit/src/core/index.js';
import type { TaxonomyKind } from '../../store/catalog-models.js';
import type { QuestionRow } from '../../store/question-models.js';
import * as questions from '../../store/question-store.js';
import { seedSystemTypes } from '../catalog/types.js';
import type { QuestionBankDeps } from '../deps.js';
import { upsertChange } from '../questions/projection.js';
import { writeFilter, type Writer } from '../questions/scope.js';
import { stampFor } from '../questions/write.js';
import { buildPool, typePool, type RequestRef } from './candidates.js';
import { effectiveOverwrite } from './fields.js';
import { withHistory, type HistoryEntry } from './history.js';
import { planApply, type ApplyCatalog, type ApplyItem, type Plan } from './plan.js';
import * as store from '../../store/ai-classify-store.js';

export interface ApplyInput {
  items: ApplyItem[];
  threshold: number;
  mode: 'missing' | 'all';
  overwrite?: boolean;
  taxonomy?: RequestRef[];
}

export interface ItemResult {
  questionId: string;
  status: 'UPDATED' | 'UNCHANGED' | 'NOT_FOUND';
  applied: Plan['applied'];
  derived: Partial<Pick<QuestionRow, 'type' | 'gradeLevel' | 'difficulty' | 'customTypeId'>>;
  skipped: Plan['skipped'];
}

const MAX_CAS_ROUNDS = 8;
const SMALL_KINDS: TaxonomyKind[] = [
  'SUBJECT',
  'EDUCATION_LEVEL',
  'GRADE',
  'CURRICULUM',
  'EXAM_TRACK',
  'QUESTION_SOURCE',
  'DIFFICULTY_LEVEL',
];

async function loadCatalog(deps: QuestionBankDeps, w: Writer, input: ApplyInput): Promise<ApplyCatalog> {
  await seedSystemTypes(deps, w.organizationId);
  const named = input.items.flatMap((i) => {
    const v = i.fields.curriculumNodeId;
    return v === undefined ? [] : [typeof v === 'string' ? v : v.value];
  });
  const [small, nodes, defs, extra] = await Promise.all([
    store.refsOfKinds(deps.models, w.organizationId, SMALL_KINDS),
    store.nodesNamed(deps.models, w.organizationId, named),
    store.activeTypes(deps.models, w.organizationId, w.userId),
    store.withoutForeignRefs(deps.models, w.organizationId, input.taxonomy ?? []),
  ]);
  return {
    pool: buildPool([...small, ...nodes], extra, w.organizationId),
    types: typePool(defs, w.organizationId),
  };
}

function derivedOf(plan: Plan): ItemResult['derived'] {
  const applied = new Set(plan.applied.map((a) => a.field));
  const out: ItemResult['derived'] = {};
  if (plan.set.type !== undefined && !applied.has('type')) out.type = plan.set.type;
  if (plan.set.customTypeId === null) out.customTypeId = null;
  if (plan.set.gradeLevel !== undefined) out.gradeLevel = plan.set.gradeLevel;
  if (plan.set.difficulty !== undefined) out.difficulty = plan.set.difficulty;
  return out;
}

interface Run {
  deps: QuestionBankDeps;
  w: Writer;
  input: ApplyInput;
  catalog: ApplyCatalog;
}

/** One compare-and-set write of the plan: no version (classification is metadata), one search event. */
async function write(run: Run, row: QuestionRow, plan: Plan): Promise<boolean> {
  const { deps, w, input } = run;
  const now = deps.clock();
  const entry: HistoryEntry = {
    at: now.toISOString(),
    actorId: w.userId,
    mode: input.mode,
    overwrite: effectiveOverwrite(input.mode, input.overwrite),
    threshold: input.threshold,
    applied: plan.applied,
    skipped: plan.skipped,
  };
  const set = {
    ...plan.set,
    sourceMetadataJson: withHistory(row, plan, entry),
    searchVersion: row.searchVersion + 1,
    updatedAt: now > row.updatedAt ? now : new Date(row.updatedAt.getTime() + 1),
  };
  const next = { ...row, ...set } as QuestionRow;
  return deps.outbox.transaction((unit, session) =>
    questions.casUpdateQuestion(
      deps.models,
      { id: row._id, expected: row.searchVersion },
      { set, stamp: stampFor(deps, unit, upsertChange(next)) },
      session,
    ),
  );
}

const reread = async (run: Run, id: string) =>
  (await questions.findQuestion(run.deps.models, { ...writeFilter(run.w), _id: id })) ?? undefined;

async function applyItem(run: Run, item: ApplyItem, first: QuestionRow | undefined): Promise<ItemResult> {
  const opts = { threshold: run.input.threshold, overwrite: effectiveOverwrite(run.input.mode, run.input.overwrite) };
  let row = first;
  for (let round = 0; round < MAX_CAS_ROUNDS; round += 1) {
    if (!row) return { questionId: item.questionId, status: 'NOT_FOUND', applied: [], derived: {}, skipped: [] };
    const plan = planApply(row, item, opts, run.catalog);
    const result = { questionId: row._id, applied: plan.applied, derived: derivedOf(plan), skipped: plan.skipped };
    if (plan.applied.length === 0) return { ...result, status: 'UNCHANGED' };
    if (await write(run, row, plan)) return { ...result, status: 'UPDATED' };
    // Another writer moved the row: plan again on what it wrote.
    row = await reread(run, item.questionId);
  }
  throw new AppError('QUESTION_CONFLICT', 'The question kept changing; try again');
}

/** Items in request order, each written on its own (one outbox unit per changed question). */
export async function applyClassification(deps: QuestionBankDeps, w: Writer, input: ApplyInput) {
  const ids = input.items.map((i) => i.questionId);
  const [rows, catalog] = await Promise.all([
    questions.findQuestionsByIds(deps.models, ids, writeFilter(w)),
    loadCatalog(deps, w, input),
  ]);
  const byId = new Map(rows.map((r) => [r._id, r]));
  const run: Run = { deps, w, input, catalog };
  const items: ItemResult[] = [];
  const seen = new Set<string>();
  for (const item of input.items) {
    // A question named twice is classified in order: the second item starts from the first's write.
    const first = seen.has(item.questionId) ? await reread(run, item.questionId) : byId.get(item.questionId);
    seen.add(item.questionId);
    items.push(await applyItem(run, item, first));
  }
  const count = (s: ItemResult['status']) => items.filter((i) => i.status === s).length;
  return { items, requested: items.length, updated: count('UPDATED'), notFound: count('NOT_FOUND') };
}
