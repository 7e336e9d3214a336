// Every mongoose model of the service in one type, owned by the store: the store's functions take it
// and the domain's deps carry it (domain/deps.ts re-exports it), so the store imports nothing above it.
import type { AiPreviewModels } from './ai-preview-models.js';
import type { CatalogModels } from './catalog-models.js';
import type { DeletionModels } from './deletion-models.js';
import type { IngestModels } from './ingest-models.js';
import type { QuestionModels } from './question-models.js';

/** Both halves' models (questions core and catalog), the deletion jobs, AI previews and ingest ledgers. */
export type QuestionBankModels = QuestionModels & CatalogModels & DeletionModels & AiPreviewModels & IngestModels;
