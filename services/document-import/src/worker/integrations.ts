// Where the worker takes its parse step and its completion hook from. Native parser only until the
// integrations (external parser client, media materialization, auto-approval) are wired here.
import type { Logger } from '../../../kit/src/index.js';
import type { DocumentImportConfig } from '../config.js';
import type { CompletedHook } from '../jobs/engine.js';
import { nativeParseStep, type ParseStep } from './parse-step.js';

export interface WorkerIntegrations {
  parse: ParseStep;
  onCompleted?: CompletedHook;
}

export function workerIntegrations(config: DocumentImportConfig, logger: Logger): WorkerIntegrations {
  void config;
  void logger;
  return { parse: nativeParseStep };
}
