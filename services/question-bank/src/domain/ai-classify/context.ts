import type { TaxonomyKind } from '../../store/catalog-models.js';
import type { QuestionRow } from '../../store/question-models.js';
import * as questions from '../../store/question-store.js';
import { seedSystemTypes } from '../catalog/types.js';
import type { QuestionBankDeps } from '../deps.js';
import { writeFilter, type Writer } from '../questions/scope.js';
import { buildPool, typePool, visibleOf, type RefCandidate, type RequestRef } from './candidates.js';
import { contextRow, type ContextRow } from './context-row.js';
import { DIRECT_FIELDS, effectiveOverwrite, isUnclassified, type DirectField } from './fields.js';
import { candidateGrades, candidateNodes, questionKeys } from './nodes.js';
import * as store from '../../store/ai-classify-store.js';

export interface ContextInput {
  questionIds: string[];
  fields?: DirectField[];
  mode: 'missing' | 'all';
  overwrite?: boolean;
  onlyUnclassified: boolean;
  fullText: boolean;
  taxonomy?: RequestRef[];
}

const LISTED: Array<[string, TaxonomyKind]> = [
  ['subjects', 'SUBJECT'],
  ['educationLevels', 'EDUCATION_LEVEL'],
  ['curricula', 'CURRICULUM'],
  ['examTracks', 'EXAM_TRACK'],
  ['questionSources', 'QUESTION_SOURCE'],
  ['difficultyLevels', 'DIFFICULTY_LEVEL'],
];
const SMALL_KINDS: TaxonomyKind[] = [...LISTED.map(([, k]) => k), 'GRADE'];

/** The shared candidates: every ACTIVE family but grades and nodes (those are per question). */
function sharedCandidates(pool: RefCandidate[], types: ReturnType<typeof typePool>) {
  const out: Record<string, unknown> = {
    questionTypes: types.map((d) => ({
      id: d._id,
      code: d.code,
      name: d.name,
      baseType: d.baseType,
      isSystem: d.isSystem,
    })),
  };
  for (const [name, kind] of LISTED) out[name] = visibleOf(pool, kind);
  return out;
}

async function loadPool(deps: QuestionBankDeps, w: Writer, rows: QuestionRow[], extra: RequestRef[]) {
  const small = await store.refsOfKinds(deps.models, w.organizationId, SMALL_KINDS);
  const base = buildPool(small, extra, w.organizationId);
  const subjects = new Set(rows.flatMap((r) => [...questionKeys(base, r).subject]));
  const nodes = await store.nodesOfSubjects(deps.models, w.organizationId, [...subjects]);
  return buildPool([...small, ...nodes], extra, w.organizationId);
}

/** Rows in request order; ids missing or outside the writer's scope are listed, not guessed. */
export async function classificationContext(deps: QuestionBankDeps, w: Writer, input: ContextInput) {
  const fields = input.fields ?? [...DIRECT_FIELDS];
  const overwrite = effectiveOverwrite(input.mode, input.overwrite);
  // Deduplicated, first occurrence kept, as the bulk routes do.
  const ids = [...new Set(input.questionIds)];
  const found = await questions.findQuestionsByIds(deps.models, ids, writeFilter(w));
  const byId = new Map(found.map((r) => [r._id, r]));
  const ordered = ids.map((id) => byId.get(id)).filter((r): r is QuestionRow => !!r);
  const rows = input.onlyUnclassified ? ordered.filter((r) => isUnclassified(r, fields)) : ordered;
  await seedSystemTypes(deps, w.organizationId);
  const [pool, defs] = await Promise.all([
    loadPool(deps, w, rows, await store.withoutForeignRefs(deps.models, w.organizationId, input.taxonomy ?? [])),
    store.activeTypes(deps.models, w.organizationId, w.userId),
  ]);
  const grades = candidateGrades(pool);
  const nodes = visibleOf(pool, 'CURRICULUM_NODE');
  const out: ContextRow[] = rows.map((row) => {
    const matched = candidateNodes(nodes, questionKeys(pool, row));
    return contextRow(
      row,
      { fields, overwrite, fullText: input.fullText },
      { grades, nodes: matched.nodes, nodesTotal: matched.total },
    );
  });
  return {
    mode: input.mode,
    overwrite,
    fields,
    rows: out,
    missingIds: ids.filter((id) => !byId.has(id)),
    classifiedIds: input.onlyUnclassified ? ordered.filter((r) => !rows.includes(r)).map((r) => r._id) : [],
    candidates: sharedCandidates(pool, typePool(defs, w.organizationId)),
  };
}
