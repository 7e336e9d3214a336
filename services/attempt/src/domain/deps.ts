import type { Logger } from '../../../kit/src/core/index.js';
import type { Outbox } from '../../../kit/src/data/index.js';
import type { AttemptStore } from '../store/attempt-store.js';
import type { AttemptModels } from '../store/models.js';

export interface AttemptDeps {
  models: AttemptModels;
  store: AttemptStore;
  outbox: Outbox;
  logger: Logger;
  clock: () => Date;
  newId: () => string;
}
