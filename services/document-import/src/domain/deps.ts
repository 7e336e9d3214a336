import type { Logger, StreamRegistry } from '../../../kit/src/index.js';
import type { QasParser } from './qas.js';

/** What the routes need, built once in service.ts. */
export interface ImportDeps {
  logger: Logger;
  /** Every open event stream, closed at the start of drain. */
  streams: StreamRegistry;
  parseQas: QasParser;
}
