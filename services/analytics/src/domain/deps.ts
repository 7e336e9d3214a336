import type { Logger } from '../../../kit/src/core/index.js';
import type { Outbox } from '../../../kit/src/data/index.js';
import type { AnalyticsModels } from '../store/models.js';

export interface AnalyticsDeps {
  models: AnalyticsModels;
  outbox: Outbox;
  logger: Logger;
  clock: () => Date;
  newId: () => string;
}
