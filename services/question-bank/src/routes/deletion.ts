import { Router } from 'express';
import type { QuestionBankDeps } from '../domain/deps.js';

// Placeholder: the deletion part of issue 8 fills this in.
export function deletionRoutes(_deps: QuestionBankDeps): Router {
  return Router();
}
