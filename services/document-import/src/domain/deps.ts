import type { Readable } from 'node:stream';
import type { BodyPace, Logger } from '../../../kit/src/core/index.js';
import type { JobDeps, JobDetail } from './jobs/types.js';
import type { QasParser } from './qas.js';
import type { Scope } from './scope.js';

export interface AssetContent {
  body: Readable;
  contentType: string;
  contentLength?: number;
}

/** The document service, as far as the routes call it. */
export interface DocumentPort {
  /** The stored file's bytes; an unknown key is a 404, an unreachable service a 502/503. */
  fetchFile(s: Scope, storageKey: string): Promise<Buffer>;
  /** A media asset's content, streamed. */
  openAsset(s: Scope, assetId: string): Promise<AssetContent>;
}

export type ApprovalTargetName = 'QUESTION_BANK' | 'EXAM_DRAFT';

export interface ApproveRequest {
  target: ApprovalTargetName;
  questionMetadata?: { subjectId?: string; gradeLevel?: number; tags?: string[] };
  examId?: string;
  exam?: { title: string; subjectId?: string; gradeLevel?: number; durationMinutes?: number };
}

export interface ApprovalOutcome {
  questionIds: string[];
  examId?: string | null;
  documentId?: string | null;
  result: unknown;
}

/**
 * Who an approval is made for; auto-approval has no request, so the creator's stored role (if any), and
 * the run's ingest grant the question bank asks of the workers' credential (kit grant.ts).
 */
export type ApprovalScope = Omit<Scope, 'role'> & { role?: string; grant?: string };

/** Approval into the question bank or an exam draft, forwarding the scope headers. */
export type ApprovePort = (s: ApprovalScope, job: JobDetail, request: ApproveRequest) => Promise<ApprovalOutcome>;

/** The simple reparse of a teacher's plain text, its warning (full parser parity pending) included. */
export type BaselineReparse = (sourceText: string) => Record<string, unknown>;

/** What the routes need, built once in service.ts. */
export interface ImportDeps {
  logger: Logger;
  /** Heartbeat period of the job event streams (DOCX_IMPORT_SSE_HEARTBEAT_MS). */
  heartbeatMs: number;
  /**
   * Where uploads spool and how many at once (one upload middleware per process shares the cap),
   * how many of them one client and one organization may hold, and the pace an upload must keep.
   */
  uploadSpool: {
    dir: string;
    maxConcurrent: number;
    maxPerClient?: number;
    maxPerOrganization?: number;
    pace?: BodyPace;
  };
  parseQas: QasParser;
  /** The job use cases' deps (domain/jobs), the same the worker builds. */
  jobs: JobDeps;
  documents: DocumentPort;
  approve: ApprovePort;
  baselineReparse: BaselineReparse;
  clock: () => Date;
}
