import { Router } from 'express';
import type { QuestionBankDeps } from '../domain/deps.js';

// Placeholder: the ai-preview part of issue 8 fills this in.
export function aiPreviewRoutes(_deps: QuestionBankDeps): Router {
  return Router();
}
