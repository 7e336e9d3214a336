// Pure: what a PUBLISHED question must carry for its base type (DESIGN.md, answer keys).
import type { CoreType, QuestionBody } from '../../store/question-models.js';

export interface Problem {
  path: string;
  message: string;
}

const CHOICE = new Set<CoreType>(['SINGLE_CHOICE', 'MULTIPLE_CHOICE', 'TRUE_FALSE']);
const SHORT = new Set<CoreType>(['SHORT_ANSWER', 'SHORT_NUMERIC_ANSWER']);

function choiceProblems(type: CoreType, body: QuestionBody): Problem[] {
  if (body.options.length < 2) return [{ path: 'options', message: 'a choice question needs at least 2 options' }];
  const correct = body.options.filter((o) => o.isCorrect).length;
  if (correct === 0) return [{ path: 'options', message: 'a choice question needs a correct option' }];
  if (type !== 'MULTIPLE_CHOICE' && correct > 1)
    return [{ path: 'options', message: `${type} allows exactly one correct option` }];
  return [];
}

function groupProblems(body: QuestionBody): Problem[] {
  const labels = (body.subItems ?? []).map((s) => s.label).join('');
  if (labels !== 'ABCD') return [{ path: 'subItems', message: 'TRUE_FALSE_GROUP needs sub-items A, B, C and D' }];
  return [];
}

function shortProblems(body: QuestionBody): Problem[] {
  const keys = body.answerKeys as { acceptedAnswers?: unknown[] } | null;
  const accepted = (keys?.acceptedAnswers ?? []).filter((a) => typeof a === 'string' && a.trim() !== '');
  if (accepted.length === 0)
    return [{ path: 'answerKeys.acceptedAnswers', message: 'a short answer needs accepted answers' }];
  return [];
}

/** Empty when a question of `type` with `body` may be PUBLISHED. */
export function publishProblems(type: CoreType, body: QuestionBody): Problem[] {
  if (CHOICE.has(type)) return choiceProblems(type, body);
  if (type === 'TRUE_FALSE_GROUP') return groupProblems(body);
  if (SHORT.has(type)) return shortProblems(body);
  return [];
}
