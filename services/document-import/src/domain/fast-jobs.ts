import { AppError } from '../../../kit/src/core/index.js';
import { storageKeyElsewhere } from '../store/job-store.js';
import { findReplay, reprocessJob, submitJob } from './jobs/submit.js';
import type { JobDetail, JobSummary } from './jobs/types.js';
import { CODES, MSG } from '../messages.js';
import type { AssetContent, ImportDeps } from './deps.js';
import { assertDocxName, precheckPackage } from './docx-file.js';
import { jobNotFound, jobScope, visibleJob, type Scope } from './scope.js';

export interface FastJobInput {
  questionStorageKey: string;
  questionFileName?: string;
  fileName?: string;
  title: string;
  autoApproveToQuestionBank: boolean;
  subjectId?: string;
  gradeLevel?: number;
}

export interface FastJobResult {
  job: JobSummary;
  replayed: boolean;
}

const fileNameOf = (input: FastJobInput): string => (input.questionFileName ?? input.fileName)!;

/** The stored file's bytes, refused unless `.docx` with the ZIP magic and a readable central directory. */
async function fetchDocx(deps: ImportDeps, s: Scope, storageKey: string): Promise<Buffer> {
  const bytes = await deps.documents.fetchFile(s, storageKey);
  await precheckPackage(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return bytes;
}

/**
 * A fast job from a stored file. With a key, an equal request (organization, actor, key, storage key)
 * within 15 minutes answers with its job before anything is fetched or queued.
 */
export async function createFastJob(
  deps: ImportDeps,
  s: Scope,
  input: FastJobInput,
  key?: string,
): Promise<FastJobResult> {
  // Both names when both are sent: a request that names a non-DOCX file is refused whichever is used.
  if (input.questionFileName !== undefined) assertDocxName(input.questionFileName, 'questionFileName');
  if (input.fileName !== undefined) assertDocxName(input.fileName, 'fileName');
  if (key) {
    const replayKey = { idempotencyKey: key, storageKey: input.questionStorageKey };
    const earlier = await findReplay(deps.jobs, jobScope(s), replayKey, deps.clock());
    if (earlier) return { job: earlier, replayed: true };
  }
  // Another organization's key is not found, as an unknown key is: its stored exam never crosses.
  if (await storageKeyElsewhere(deps.jobs.store, input.questionStorageKey, s.organizationId)) {
    throw new AppError('STORAGE_OBJECT_NOT_FOUND', 'No stored file under that storage key');
  }
  const fileName = fileNameOf(input);
  const bytes = await fetchDocx(deps, s, input.questionStorageKey);
  return submitJob(deps.jobs, jobScope(s), {
    source: { bytes },
    fileName,
    title: input.title,
    jobKind: 'DOCX_FAST',
    jobSource: 'STORAGE',
    autoApproveToQuestionBank: input.autoApproveToQuestionBank,
    subjectId: input.subjectId ?? null,
    gradeLevel: input.gradeLevel ?? null,
    questionStorageKey: input.questionStorageKey,
    idempotencyKey: key ?? null,
  });
}

async function fastJob(deps: ImportDeps, s: Scope, id: string): Promise<JobDetail> {
  const job = await visibleJob(deps.jobs, s, id);
  if (job.jobKind !== 'DOCX_FAST') throw jobNotFound();
  return job;
}

async function completedFastJob(deps: ImportDeps, s: Scope, id: string): Promise<JobDetail> {
  const job = await fastJob(deps, s, id);
  if (job.status !== 'COMPLETED')
    throw new AppError(CODES.jobNotCompleted, MSG.jobNotCompleted, { details: { status: job.status } });
  return job;
}

export const TEMP_DRAFT_TTL_MS = 24 * 60 * 60 * 1000;

export const draftToken = (jobId: string): string => `materialized-${jobId}`;

/** The materialized draft of a completed fast job: the reviewed payload when one was saved. */
export async function tempDraft(deps: ImportDeps, s: Scope, id: string) {
  const job = await completedFastJob(deps, s, id);
  const draft = (job.packagingJson?.docxFastTempDraft ?? {}) as { expiresAt?: string };
  const completed = new Date(job.completedAt ?? job.updatedAt).getTime();
  return {
    token: draftToken(job.id),
    jobId: job.id,
    expiresAt: draft.expiresAt ?? new Date(completed + TEMP_DRAFT_TTL_MS).toISOString(),
    parseResult: job.parseResultJson,
    assets: [],
  };
}

const REFERENCE_KEYS = ['media_asset_id', 'media_id', 'go_asset_id', 'mediaAssetId', 'mediaId', 'goAssetId'];
const CONTENT_URL = /\/media-assets\/([^/?#]+)\/content(?:[?#]|$)/;

/** Pure: the asset id behind `tempAssetId` when a media reference in the result names it; null otherwise. */
export function materializedAssetId(result: unknown, tempAssetId: string): string | null {
  const stack: unknown[] = [result];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (node && typeof node === 'object') {
      const found = matchReference(node as Record<string, unknown>, tempAssetId);
      if (found) return found;
      stack.push(...Object.values(node));
    }
  }
  return null;
}

function matchReference(ref: Record<string, unknown>, tempAssetId: string): string | null {
  const url = typeof ref.url === 'string' ? CONTENT_URL.exec(ref.url) : null;
  const assetId = typeof ref.media_asset_id === 'string' ? ref.media_asset_id : (url?.[1] ?? null);
  if (!assetId) return null;
  if (url && (ref.url === tempAssetId || url[1] === tempAssetId)) return assetId;
  return REFERENCE_KEYS.some((k) => ref[k] === tempAssetId) ? assetId : null;
}

/** A materialized asset of a completed fast job, streamed from the document service. */
export async function tempAsset(deps: ImportDeps, s: Scope, id: string, tempAssetId: string): Promise<AssetContent> {
  const job = await completedFastJob(deps, s, id);
  const assetId =
    materializedAssetId(job.parseResultJson, tempAssetId) ??
    materializedAssetId(job.originalParseResultJson, tempAssetId);
  if (!assetId) throw new AppError(CODES.assetNotFound, MSG.assetNotFound);
  return deps.documents.openAsset(s, assetId);
}

/** Re-reads the source and queues the job again; refused while it is active or waiting. */
export async function reprocessFastJob(deps: ImportDeps, s: Scope, id: string): Promise<JobSummary> {
  const job = await fastJob(deps, s, id);
  if (job.status === 'PENDING' || job.status === 'PROCESSING') {
    throw new AppError(CODES.jobActive, MSG.jobActive, { details: { status: job.status } });
  }
  if (!job.questionStorageKey) throw jobNotFound();
  const bytes = await fetchDocx(deps, s, job.questionStorageKey);
  return reprocessJob(deps.jobs, jobScope(s), job.id, { bytes });
}
