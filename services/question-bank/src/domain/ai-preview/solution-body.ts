// Pure: what a reviewed AI solution changes in a question body. It replaces the explanation
// (text and JSON, the JSON recording source, previewId, provider, model and normalized steps) and,
// when given, the answer keys with the options' correctness and the TRUE_FALSE_GROUP booleans.
// Content, options' text, type, status, source and provenance stay as they are.
import { AppError, type FieldError } from '../../../../kit/src/core/index.js';
import type { OptionRow, QuestionBody, SubItemRow } from '../../store/question-models.js';
import { contentJsonOf } from '../questions/body.js';

export const AI_SOLUTION_SOURCE = 'ai-preview';

export type SubItemLabel = SubItemRow['label'];

export interface AiSolutionAnswerKeys {
  correctOptionIds?: string[];
  correctLabels?: string[];
  acceptedAnswers?: string[];
  tolerance?: number;
}

export interface AiSolution {
  explanation: string;
  explanationJson?: Record<string, unknown> | null;
  steps?: Array<string | { title?: string; content: string }>;
  answerKeys?: AiSolutionAnswerKeys;
  correctBooleans?: Partial<Record<SubItemLabel, boolean>>;
}

export interface SolutionInput {
  questionId: string;
  previewId: string;
  provider?: string;
  model?: string;
  solution: AiSolution;
}

export interface SolutionStep {
  order: number;
  title: string | null;
  content: string;
}

/** Steps as given, or else one per non-blank line of the explanation; blank steps dropped, numbered from 1. */
export function normalizeSteps(solution: AiSolution): SolutionStep[] {
  const raw = solution.steps ?? solution.explanation.split(/\r?\n/);
  return raw
    .map((s) =>
      typeof s === 'string'
        ? { title: null, content: s.trim() }
        : { title: s.title?.trim() || null, content: s.content.trim() },
    )
    .filter((s) => s.content !== '')
    .map((s, i) => ({ order: i + 1, ...s }));
}

export function solutionExplanationJson(input: SolutionInput): Record<string, unknown> {
  const { solution } = input;
  const doc = (solution.explanationJson ?? contentJsonOf(solution.explanation)) as Record<string, unknown>;
  return {
    ...doc,
    source: AI_SOLUTION_SOURCE,
    previewId: input.previewId,
    ...(input.provider ? { provider: input.provider } : {}),
    ...(input.model ? { model: input.model } : {}),
    steps: normalizeSteps(solution),
  };
}

function invalid(details: FieldError[]): AppError {
  return new AppError('VALIDATION_ERROR', `Validation failed: ${details[0]!.message}`, { details });
}

function choiceKeys(options: OptionRow[], keys: AiSolutionAnswerKeys) {
  const labels = new Set(keys.correctLabels ?? []);
  const ids = new Set(keys.correctOptionIds ?? []);
  const missing: FieldError[] = [
    ...[...labels]
      .filter((l) => !options.some((o) => o.label === l))
      .map((l) => ({ path: 'solution.answerKeys.correctLabels', message: `the question has no option ${l}` })),
    ...[...ids]
      .filter((id) => !options.some((o) => o.id === id))
      .map((id) => ({ path: 'solution.answerKeys.correctOptionIds', message: `the question has no option ${id}` })),
  ];
  if (missing.length > 0) throw invalid(missing);
  const next = options.map((o) => ({ ...o, isCorrect: labels.has(o.label) || ids.has(o.id) }));
  const correct = next.filter((o) => o.isCorrect);
  const answerKeys = {
    ...keys,
    correctOptionIds: correct.map((o) => o.id),
    correctLabels: correct.map((o) => o.label),
  };
  return { options: next, answerKeys };
}

function withKeys(body: QuestionBody, keys: AiSolutionAnswerKeys | undefined) {
  if (!keys) return { options: body.options, answerKeys: body.answerKeys };
  if (keys.correctLabels === undefined && keys.correctOptionIds === undefined)
    return { options: body.options, answerKeys: keys };
  return choiceKeys(body.options, keys);
}

function withBooleans(items: SubItemRow[] | null, flags: AiSolution['correctBooleans']): SubItemRow[] | null {
  if (!flags) return items;
  const missing = Object.keys(flags).filter((l) => !(items ?? []).some((s) => s.label === l));
  if (missing.length > 0)
    throw invalid(
      missing.map((l) => ({ path: `solution.correctBooleans.${l}`, message: `the question has no sub-item ${l}` })),
    );
  return (items ?? []).map((s) => (flags[s.label] === undefined ? s : { ...s, correctBoolean: flags[s.label]! }));
}

/** The body after the solution; throws VALIDATION_ERROR when it names options or sub-items the question lacks. */
export function solvedBody(current: QuestionBody, input: SolutionInput): QuestionBody {
  const { solution } = input;
  return {
    ...current,
    explanation: solution.explanation,
    explanationJson: solutionExplanationJson(input),
    ...withKeys(current, solution.answerKeys),
    subItems: withBooleans(current.subItems, solution.correctBooleans),
  };
}
