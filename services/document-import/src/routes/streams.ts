import { StreamRegistry } from '../../../kit/src/http/index.js';
import type { ImportDeps } from '../domain/deps.js';

const registries = new WeakMap<ImportDeps, StreamRegistry>();

/**
 * Every open event stream of one app (one `deps`): the stream routes register theirs here and
 * service.ts closes them at the start of drain. The registry is the api's, so the domain holds no HTTP.
 */
export function streamRegistry(deps: ImportDeps): StreamRegistry {
  let registry = registries.get(deps);
  if (!registry) {
    registry = new StreamRegistry();
    registries.set(deps, registry);
  }
  return registry;
}
