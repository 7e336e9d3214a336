import type { JsonObject } from '../../../kit/src/http/index.js';
import { AI_APPLY_SCHEMAS } from './schemas-ai-apply.js';
import { AI_CLASSIFY_SCHEMAS } from './schemas-ai-classify.js';
import { AI_SCHEMAS } from './schemas-ai.js';
import { BLUEPRINT_SELECTION_SCHEMAS } from './schemas-blueprint-selection.js';
import { BLUEPRINT_SCHEMAS } from './schemas-blueprint.js';
import { CATALOG_SCHEMAS } from './schemas-catalog.js';
import { DELETION_SCHEMAS } from './schemas-deletion.js';
import { HYDRATION_SCHEMAS } from './schemas-hydration.js';
import { INGEST_SCHEMAS } from './schemas-ingest.js';
import { LEGACY_SCHEMAS } from './schemas-legacy.js';
import { QUESTION_SCHEMAS } from './schemas-questions.js';

/** The response shapes the routes refer to (request shapes come from the joi schemas). */
export const RESPONSE_SCHEMAS: JsonObject = {
  ...QUESTION_SCHEMAS,
  ...HYDRATION_SCHEMAS,
  ...LEGACY_SCHEMAS,
  ...CATALOG_SCHEMAS,
  ...AI_SCHEMAS,
  ...AI_CLASSIFY_SCHEMAS,
  ...AI_APPLY_SCHEMAS,
  ...INGEST_SCHEMAS,
  ...DELETION_SCHEMAS,
  ...BLUEPRINT_SCHEMAS,
  ...BLUEPRINT_SELECTION_SCHEMAS,
};
