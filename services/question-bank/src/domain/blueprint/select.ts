// The blueprint selection use case: ids first (a projection of candidates per rule), then the
// picked rows and their current versions in one batched query each, then one batched hydration.
import type { Actor } from '../../../../kit/src/core/index.js';
import type { QuestionRow } from '../../store/question-models.js';
import * as store from '../../store/question-store.js';
import type { QuestionBankDeps } from '../deps.js';
import { hydrateQuestions, NAMED_REFS, type QuestionHydration } from '../hydrate.js';
import { readScope, scopeFilter, type ReadScope, type ScopeQuery } from '../questions/scope.js';
import { outcomeOf, selectIds, totals, type BlueprintRequest, type CandidateSource, type RuleOutcome } from './plan.js';
import { seedText } from './shuffle.js';
import { snapshotOf } from './snapshot.js';

/** Candidate ids only (`_id` projection): a rule over 10,000 questions never loads their bodies. */
function candidateSource(deps: QuestionBankDeps): CandidateSource {
  return (filter, limit) => store.questionIds(deps.models, filter, limit);
}

// A row unpublished or removed between the id read and this one is not returned: it counts
// against its rule's shortfall instead of being served stale.
async function loadPicked(deps: QuestionBankDeps, scope: ReadScope, ids: string[]) {
  const filter = { ...scopeFilter(scope), status: 'PUBLISHED' };
  const rows = ids.length === 0 ? [] : await store.findQuestionsByIds(deps.models, ids, filter);
  const versionIds = rows.map((r) => r.currentVersionId).filter((v): v is string => !!v);
  const versions = await store.findVersions(deps.models, versionIds);
  return { rows: new Map(rows.map((r) => [r._id, r])), versions: new Map(versions.map((v) => [v._id, v])) };
}

// What hydration reads: ids only, so the hydrated members never share objects with a snapshot.
const hydrationSource = (r: QuestionRow) => ({
  id: r._id,
  organizationId: r.organizationId,
  createdById: r.createdById,
  customTypeId: r.customTypeId,
  groupId: r.groupId,
  subjectId: r.subjectId,
  educationLevelId: r.educationLevelId,
  gradeId: r.gradeId,
  curriculumId: r.curriculumId,
  curriculumNodeId: r.curriculumNodeId,
  examTrackId: r.examTrackId,
  questionSourceId: r.questionSourceId,
  difficultyLevelId: r.difficultyLevelId,
  chapterId: r.chapterId,
  topicId: r.topicId,
});

// The display members only: not the ids hydration read, not the group (the snapshot has it by
// value) and not the folder (a teacher's filing, nothing an exam shows).
const REF_MEMBERS = ['_count', 'createdBy', 'organization', 'customType', ...Object.values(NAMED_REFS)] as const;
const refsOf = (h: QuestionHydration) => Object.fromEntries(REF_MEMBERS.map((k) => [k, h[k]]));

async function itemsOf(
  deps: QuestionBankDeps,
  outcomes: RuleOutcome[],
  loaded: Awaited<ReturnType<typeof loadPicked>>,
) {
  const picked = outcomes.flatMap((o) => o.questionIds.map((id, position) => ({ rule: o.index, position, id })));
  const rows = picked.map((p) => loaded.rows.get(p.id)!);
  const hydrated = await hydrateQuestions(deps, rows.map(hydrationSource), { view: 'detail' });
  return picked.map((p, i) => {
    const row = rows[i]!;
    const h = hydrated[i]!;
    return {
      ruleIndex: p.rule,
      position: p.position,
      questionId: p.id,
      snapshot: snapshotOf(row, loaded.versions.get(row.currentVersionId ?? ''), h.group),
      refs: refsOf(h),
    };
  });
}

export async function selectForBlueprint(
  deps: QuestionBankDeps,
  actor: Actor,
  query: ScopeQuery,
  req: BlueprintRequest,
) {
  const scope = readScope(actor, query);
  const seed = req.randomSeed === undefined ? null : seedText(req.randomSeed);
  const chosen = await selectIds(scope, req, seed, candidateSource(deps));
  const loaded = await loadPicked(
    deps,
    scope,
    chosen.flatMap((o) => o.questionIds),
  );
  const outcomes = chosen.map((o) =>
    outcomeOf(
      o.index,
      o.requested,
      o.questionIds.filter((id) => loaded.rows.has(id)),
    ),
  );
  return {
    ...totals(outcomes),
    ordering: seed === null ? 'NEWEST_FIRST' : 'SEEDED',
    randomSeed: seed,
    rules: outcomes,
    items: await itemsOf(deps, outcomes, loaded),
  };
}

export type BlueprintResult = Awaited<ReturnType<typeof selectForBlueprint>>;
