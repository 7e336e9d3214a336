// Pure: the question-specific candidates of the context (curriculum nodes, grades).
import type { QuestionRow } from '../../store/question-models.js';
import { resolveRef, visibleOf, type RefCandidate } from './candidates.js';

export const MAX_NODE_CANDIDATES = 160;
export const MAX_GRADE_CANDIDATES = 100;

export type NodeMatch = 'SUBJECT_GRADE_CURRICULUM' | 'SUBJECT_GRADE';
export type NodeCandidate = RefCandidate & { match: NodeMatch };

type Placed = Pick<QuestionRow, 'subjectId' | 'gradeId' | 'gradeLevel' | 'curriculumId'>;

/** A question's value and, when it resolves, that ref's id and code: a node may link by either. */
function keysOf(pool: RefCandidate[], kind: RefCandidate['kind'], value: string | null): Set<string> {
  if (!value) return new Set();
  const ref = resolveRef(pool, kind, value);
  return new Set(ref ? [value, ref.id, ref.code] : [value]);
}

/** The grade: its gradeId when set, else every grade ref whose numericLevel is the gradeLevel. */
function gradeKeys(pool: RefCandidate[], q: Placed): Set<string> {
  if (q.gradeId) return keysOf(pool, 'GRADE', q.gradeId);
  const level = visibleOf(pool, 'GRADE').filter((g) => g.numericLevel === q.gradeLevel);
  return new Set(level.flatMap((g) => [g.id, g.code]));
}

export interface QuestionKeys {
  subject: Set<string>;
  grade: Set<string>;
  curriculum: Set<string>;
}

export function questionKeys(pool: RefCandidate[], q: Placed): QuestionKeys {
  return {
    subject: keysOf(pool, 'SUBJECT', q.subjectId),
    grade: gradeKeys(pool, q),
    curriculum: keysOf(pool, 'CURRICULUM', q.curriculumId),
  };
}

const within = (keys: Set<string>, v: string | null | undefined) => typeof v === 'string' && keys.has(v);

/**
 * Nodes of the question's subject, grade and curriculum first, then of its subject and grade
 * (any curriculum); pool order inside each tier; at most `cap`. `total` counts before the cap.
 */
export function candidateNodes(
  nodes: RefCandidate[],
  keys: QuestionKeys,
  cap = MAX_NODE_CANDIDATES,
): { nodes: NodeCandidate[]; total: number } {
  const placed = nodes.filter((n) => within(keys.subject, n.subjectId) && within(keys.grade, n.gradeId));
  const first = placed.filter((n) => within(keys.curriculum, n.curriculumId));
  const firstIds = new Set(first.map((n) => n.id));
  const ranked: NodeCandidate[] = [
    ...first.map((n) => ({ ...n, match: 'SUBJECT_GRADE_CURRICULUM' as const })),
    ...placed.filter((n) => !firstIds.has(n.id)).map((n) => ({ ...n, match: 'SUBJECT_GRADE' as const })),
  ];
  return { nodes: ranked.slice(0, cap), total: ranked.length };
}

/** Every visible grade, by numericLevel then code. */
export function candidateGrades(pool: RefCandidate[]): RefCandidate[] {
  const level = (g: RefCandidate) => g.numericLevel ?? Number.MAX_SAFE_INTEGER;
  return visibleOf(pool, 'GRADE')
    .sort((a, b) => level(a) - level(b) || a.code.localeCompare(b.code))
    .slice(0, MAX_GRADE_CANDIDATES);
}
