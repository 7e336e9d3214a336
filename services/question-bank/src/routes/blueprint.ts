import { Router } from 'express';
import type { QuestionBankDeps } from '../domain/deps.js';

// Placeholder: the blueprint part of issue 8 fills this in.
export function blueprintRoutes(_deps: QuestionBankDeps): Router {
  return Router();
}
