import type { Logger, Outbox } from '../../../kit/src/index.js';
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
