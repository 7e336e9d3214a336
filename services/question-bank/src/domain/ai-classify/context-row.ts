// Pure: one question as the classifier sees it (bounded text, current classification).
import type { QuestionRow } from '../../store/question-models.js';
import { isMissing, legacyDifficulty, targetFields, type DirectField } from './fields.js';
import type { NodeCandidate } from './nodes.js';
import type { RefCandidate } from './candidates.js';

// Enough for a classifier to place a question; a whole passage only with fullText.
export const CONTENT_BOUND = 4000;
export const EXPLANATION_BOUND = 2000;
export const OPTION_BOUND = 500;

/** At most `max` characters (code points, so a surrogate pair is never split). */
export function bounded(text: string | null, max: number, full: boolean): { text: string | null; truncated: boolean } {
  if (text === null || full) return { text, truncated: false };
  const chars = [...text];
  return chars.length <= max ? { text, truncated: false } : { text: chars.slice(0, max).join(''), truncated: true };
}

export interface ContextOptions {
  fields: DirectField[];
  overwrite: boolean;
  fullText: boolean;
}

export interface RowCandidates {
  grades: RefCandidate[];
  nodes: NodeCandidate[];
  nodesTotal: number;
}

function classificationOf(row: QuestionRow) {
  const legacy = legacyDifficulty(row);
  return {
    type: row.type,
    customTypeId: row.customTypeId ?? null,
    subjectId: row.subjectId,
    educationLevelId: row.educationLevelId ?? null,
    gradeId: row.gradeId ?? null,
    gradeLevel: row.gradeLevel,
    curriculumId: row.curriculumId ?? null,
    curriculumNodeId: row.curriculumNodeId ?? null,
    examTrackId: row.examTrackId ?? null,
    questionSourceId: row.questionSourceId ?? null,
    // A legacy-synced difficulty is not a classification: returned empty, to be redone.
    difficultyLevelId: legacy ? null : (row.difficultyLevelId ?? null),
    difficulty: row.difficulty,
  };
}

export function contextRow(row: QuestionRow, opts: ContextOptions, candidates: RowCandidates) {
  const content = bounded(row.content, CONTENT_BOUND, opts.fullText);
  const explanation = bounded(row.explanation, EXPLANATION_BOUND, opts.fullText);
  const options = row.options.map((o) => ({
    label: o.label,
    content: bounded(o.content, OPTION_BOUND, opts.fullText).text,
    isCorrect: o.isCorrect,
  }));
  const subItems = (row.subItems ?? []).map((s) => ({
    label: s.label,
    content: bounded(s.content, OPTION_BOUND, opts.fullText).text,
    correctBoolean: s.correctBoolean,
  }));
  return {
    questionId: row._id,
    status: row.status,
    content: content.text,
    explanation: explanation.text,
    truncated:
      content.truncated || explanation.truncated || options.some((o, i) => o.content !== row.options[i]!.content),
    options,
    subItems,
    classification: classificationOf(row),
    missingFields: opts.fields.filter((f) => isMissing(row, f)),
    targetFields: targetFields(row, opts.fields, opts.overwrite),
    needsDifficultyReclassification: legacyDifficulty(row),
    candidateGrades: candidates.grades,
    candidateCurriculumNodes: candidates.nodes,
    candidateCurriculumNodesTotal: candidates.nodesTotal,
  };
}
export type ContextRow = ReturnType<typeof contextRow>;
