import type { Logger, Outbox } from '../../../kit/src/index.js';
import type { AnalyticsModels } from '../store/models.js';

export interface AnalyticsDeps {
  models: AnalyticsModels;
  outbox: Outbox;
  logger: Logger;
  clock: () => Date;
  newId: () => string;
}
