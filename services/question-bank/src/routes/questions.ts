import { Router } from 'express';
import type { QuestionBankDeps } from '../domain/deps.js';

export function questionRoutes(_deps: QuestionBankDeps): Router {
  return Router();
}
