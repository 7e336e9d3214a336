// Contract-fixed texts and the service's own codes, in one place.
export const MSG = {
  fastDraft: 'DOCX Fast materialized draft',
  fastReprocessed: 'DOCX Fast import reprocessed',
  jobQueued: 'DOCX import job queued',
  reviewSaved: 'DOCX import review saved',
  approved: 'DOCX import approved',
  userRequired: 'X-User-Id header is required',
  organizationRequired: 'X-Organization-Id header is required',
  roleRequired: 'Document import requires role TEACHER or ADMIN',
  notDocx: 'File is not a DOCX document (ZIP magic header missing)',
  extensionDocx: 'File name must end in .docx',
  jobNotFound: 'Import job not found',
  jobActive: 'Import job is active or waiting in the queue',
  jobNotCompleted: 'Import job has not completed',
  notFastJob: 'Import job is not a DOCX Fast job',
  assetNotFound: 'Temp draft asset not found',
  tokenInvalid: 'docxFastTempDraftToken must be materialized-<job id>',
  reviewEmpty: 'parseResult or sourceText is required',
  keyTooLong: 'Idempotency-Key is longer than 120 characters',
} as const;

export const CODES = {
  validation: 'VALIDATION_ERROR',
  unauthenticated: 'UNAUTHENTICATED',
  forbidden: 'FORBIDDEN',
  invalidFile: 'DOCX_INVALID_FILE',
  jobNotFound: 'IMPORT_JOB_NOT_FOUND',
  jobActive: 'IMPORT_JOB_ACTIVE',
  jobNotCompleted: 'IMPORT_JOB_NOT_COMPLETED',
  assetNotFound: 'TEMP_ASSET_NOT_FOUND',
} as const;

/** The contract's upload limit. */
export const MAX_DOCX_BYTES = 50 * 1024 * 1024;
