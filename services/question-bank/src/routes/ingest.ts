import { Router } from 'express';
import type { QuestionBankDeps } from '../domain/deps.js';

// Placeholder: the ingest part of issue 8 fills this in.
export function ingestRoutes(_deps: QuestionBankDeps): Router {
  return Router();
}
