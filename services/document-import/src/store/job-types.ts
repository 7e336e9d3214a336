// The shapes a stored job row is made of (job-models.ts), owned by the store so it imports nothing
// above it; domain/jobs/types.ts re-exports them for the use cases, the worker and the routes.

/** A job's lifecycle status. */
export type JobStatus = 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED';
/** What the job parses: a QAS upload or a fast DOCX. */
export type JobKind = 'QAS' | 'DOCX_FAST';
/** UPLOAD: multipart upload (`.../qas/jobs`); STORAGE: fetched from the document service by key. */
export type JobSource = 'UPLOAD' | 'STORAGE';
/** Where an approved job's questions go. */
export type ApprovalTarget = 'QUESTION_BANK' | 'EXAM_DRAFT';

/** Why a job failed: an error code, its message and what the parser saw. */
export interface JobFailure {
  code: string;
  message: string;
  /** What the parser saw (DOCX_NO_QUESTIONS_FOUND: paragraphs, tables, firstLines); kept on the job, never published. */
  details?: Record<string, unknown>;
}

/** What a job has parsed so far. */
export interface JobCounters {
  totalQuestions: number;
  parsedQuestions: number;
  pendingEquations: number;
  pendingImages: number;
  warnings: number;
  errors: number;
}

/** The bytes of a submission: a file on disk (the kit's upload temp file) or a buffer. */
export type PayloadSource = { filePath: string } | { bytes: Buffer };

/** What a job list is narrowed to, besides its organization. */
export interface JobFilters {
  status?: JobStatus;
  jobKind?: JobKind;
  source?: JobSource;
  /** Only the jobs this actor created (the teacher library passes the caller). */
  createdBy?: string;
  /** Case-insensitive substring of the title or file name. */
  q?: string;
  createdFrom?: Date;
  createdTo?: Date;
}

/** A page of a list: 1-based page, limit per page. */
export interface Paging {
  page: number;
  limit: number;
}
