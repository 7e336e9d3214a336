import type { JobEngine, JobEngineOptions } from './engine.js';

export async function buildEngine(_opts: JobEngineOptions): Promise<JobEngine> {
  throw new Error('job engine: not implemented yet');
}
