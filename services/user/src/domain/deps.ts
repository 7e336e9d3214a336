import type { Logger } from '../../../kit/src/core/index.js';
import type { MongoHandle } from '../../../kit/src/data/index.js';
import type { UserModels } from '../store/models.js';

/** Everything a use case needs, injected at the edge (service.ts or a test). */
export interface UserDeps {
  db: MongoHandle;
  models: UserModels;
  logger: Logger;
  clock: () => Date;
}
