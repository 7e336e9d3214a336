import type { Logger } from '../../../kit/src/core/index.js';
import type { NotificationModels } from '../store/models.js';

export interface NotificationDeps {
  models: NotificationModels;
  logger: Logger;
  clock: () => Date;
  newId: () => string;
}
