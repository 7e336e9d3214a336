import { Router } from 'express';
import type { QuestionBankDeps } from '../domain/deps.js';

// Placeholder: the ai-classify part of issue 8 fills this in.
export function aiClassifyRoutes(_deps: QuestionBankDeps): Router {
  return Router();
}
