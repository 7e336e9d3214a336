import { Router } from 'express';
import type { QuestionBankDeps } from '../domain/deps.js';

// Placeholder until QB-B delivers the catalog routes.
export function catalogRoutes(_deps: QuestionBankDeps): Router {
  return Router();
}
