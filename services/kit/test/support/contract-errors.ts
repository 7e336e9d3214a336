// Every error the three contracts state (or imply by a rule they state), the code a service throws
// for it and the status the kit's table gives that code. Services keep the texts in their own
// messages.ts; this list is what they pick codes from, and errors.test.ts proves each status.
// `text` quotes the contract where it fixes a message; otherwise it names the condition.

export interface ContractError {
  contract: '000' | '001' | '002' | 'kit';
  text: string;
  code: string;
  status: number;
}

export const CONTRACT_ERRORS: readonly ContractError[] = [
  // 000: auth, user, analytics, notification (codes and statuses "not shown": ours)
  { contract: '000', text: 'refresh token fails signature, jti or hash checks', code: 'UNAUTHENTICATED', status: 401 },
  { contract: '000', text: 'me: access token missing or invalid', code: 'UNAUTHENTICATED', status: 401 },
  {
    contract: '000',
    text: 'base-profile values that break the rules under Limits',
    code: 'VALIDATION_ERROR',
    status: 400,
  },
  { contract: '000', text: 'an e-mail already in use', code: 'EMAIL_TAKEN', status: 409 },
  { contract: '000', text: 'a phone already in use', code: 'PHONE_TAKEN', status: 409 },
  { contract: '000', text: 'profile of an unknown user', code: 'USER_NOT_FOUND', status: 404 },
  { contract: '000', text: 'notification id unknown', code: 'NOTIFICATION_NOT_FOUND', status: 404 },
  {
    contract: '000',
    text: 'mark-read or delete of a notification the non-admin caller does not own',
    code: 'FORBIDDEN',
    status: 403,
  },
  // 001: question bank
  {
    contract: '001',
    text: 'question id missing or outside scope on detail read',
    code: 'QUESTION_NOT_FOUND',
    status: 404,
  },
  {
    contract: '001',
    text: 'AI preview draft or solution: same previewId with different content (contract: 400)',
    code: 'AI_PREVIEW_CONFLICT',
    status: 400,
  },
  {
    contract: '001',
    text: 'DOCX ingest: Idempotency-Key reused with another payload (contract: 409)',
    code: 'IDEMPOTENCY_KEY_REUSED',
    status: 409,
  },
  {
    contract: '001',
    text: 'duplicate custom type code for the same organization and actor',
    code: 'QUESTION_TYPE_CODE_TAKEN',
    status: 409,
  },
  {
    contract: '001',
    text: 'deleting a folder that has child folders or questions',
    code: 'FOLDER_NOT_EMPTY',
    status: 409,
  },
  {
    contract: '001',
    text: 'create with status=PUBLISHED that breaks base-type constraints',
    code: 'QUESTION_INVALID_FOR_TYPE',
    status: 400,
  },
  { contract: '001', text: 'bulk or permanent-delete over the id limit (100)', code: 'VALIDATION_ERROR', status: 400 },
  { contract: '001', text: 'AI classification context over 25 questionIds', code: 'VALIDATION_ERROR', status: 400 },
  { contract: '001', text: 'folderId not visible in the same scope', code: 'FOLDER_NOT_FOUND', status: 404 },
  { contract: '001', text: 'question type id unknown', code: 'QUESTION_TYPE_NOT_FOUND', status: 404 },
  {
    contract: '001',
    text: 'blueprint rule unfilled with requireComplete=true (ours: says so, never fewer silently)',
    code: 'BLUEPRINT_INCOMPLETE',
    status: 409,
  },
  { contract: '001', text: 'permanent-delete job id unknown', code: 'PERMANENT_DELETE_JOB_NOT_FOUND', status: 404 },
  { contract: '001', text: 'write without the scope headers', code: 'UNAUTHENTICATED', status: 401 },
  { contract: '001', text: 'write with a role other than ADMIN or TEACHER', code: 'FORBIDDEN', status: 403 },
  {
    contract: '001',
    text: 'custom type changed by a non-owner, system type by a non-admin, preview applied to another teacher’s private question',
    code: 'FORBIDDEN',
    status: 403,
  },
  // 002: attempt
  { contract: '002', text: 'Attempt is locked', code: 'ATTEMPT_LOCKED', status: 409 },
  { contract: '002', text: 'Câu hỏi không thuộc lượt làm bài này', code: 'QUESTION_NOT_IN_ATTEMPT', status: 400 },
  {
    contract: '002',
    text: 'positive clientVersion lower than the stored serverVersion (contract: 409)',
    code: 'ANSWER_VERSION_CONFLICT',
    status: 409,
  },
  { contract: '002', text: 'Exam duration expired', code: 'EXAM_DURATION_EXPIRED', status: 409 },
  { contract: '002', text: 'start: path exam id differs from body exam id', code: 'EXAM_ID_MISMATCH', status: 400 },
  {
    contract: '002',
    text: 'start, answer or submit by an actor who is not the STUDENT owner',
    code: 'FORBIDDEN',
    status: 403,
  },
  { contract: '002', text: 'start: exam status is not PUBLISHED', code: 'EXAM_NOT_PUBLISHED', status: 409 },
  { contract: '002', text: 'start: delivery mode OFFLINE', code: 'EXAM_OFFLINE', status: 409 },
  { contract: '002', text: 'start: before openTime', code: 'EXAM_NOT_OPEN', status: 409 },
  { contract: '002', text: 'start: after closeTime', code: 'EXAM_CLOSED', status: 409 },
  { contract: '002', text: 'start: access password not verified', code: 'EXAM_PASSWORD_INVALID', status: 403 },
  {
    contract: '002',
    text: 'start: no valid assignment and no active access link',
    code: 'EXAM_ACCESS_DENIED',
    status: 403,
  },
  { contract: '002', text: 'start: max attempts reached', code: 'ATTEMPT_LIMIT_REACHED', status: 409 },
  { contract: '002', text: 'start: guest-link student limit reached', code: 'ACCESS_LINK_LIMIT_REACHED', status: 409 },
  { contract: '002', text: 'start: no question snapshot', code: 'EXAM_HAS_NO_QUESTIONS', status: 400 },
  { contract: '002', text: 'attempt id unknown', code: 'ATTEMPT_NOT_FOUND', status: 404 },
  { contract: '002', text: 'a student reading another student’s attempt', code: 'FORBIDDEN', status: 403 },
  // 002: document import
  {
    contract: '002',
    text: 'upload without the .docx extension (kit upload())',
    code: 'UNSUPPORTED_MEDIA_TYPE',
    status: 415,
  },
  {
    contract: '002',
    text: 'upload or fetched file without the ZIP magic header',
    code: 'DOCX_INVALID_FILE',
    status: 415,
  },
  { contract: '002', text: 'upload over the size limit (50 MB)', code: 'PAYLOAD_TOO_LARGE', status: 413 },
  { contract: '002', text: 'reprocess of an active or waiting job', code: 'IMPORT_JOB_ACTIVE', status: 409 },
  { contract: '002', text: 'import job id unknown', code: 'IMPORT_JOB_NOT_FOUND', status: 404 },
  {
    contract: '002',
    text: 'temp-draft, review or approve of a job that is not COMPLETED',
    code: 'IMPORT_JOB_NOT_COMPLETED',
    status: 409,
  },
  {
    contract: '002',
    text: 'tempAssetId matches no materialized media reference',
    code: 'TEMP_ASSET_NOT_FOUND',
    status: 404,
  },
  {
    contract: '002',
    text: 'docxFastTempDraftToken not of the form materialized-<job_id>',
    code: 'VALIDATION_ERROR',
    status: 400,
  },
  {
    contract: '002',
    text: 'document service, question bank or exam service answered an error',
    code: 'UPSTREAM_ERROR',
    status: 502,
  },
  {
    contract: '002',
    text: 'document service, question bank or exam service unreachable',
    code: 'DEPENDENCY_UNAVAILABLE',
    status: 503,
  },
  // The kit's own helpers
  {
    contract: 'kit',
    text: 'Idempotency-Key in use by a request still running',
    code: 'IDEMPOTENCY_REQUEST_IN_PROGRESS',
    status: 409,
  },
  {
    contract: 'kit',
    text: 'multipart: file field missing, second file, malformed form',
    code: 'VALIDATION_ERROR',
    status: 400,
  },
  {
    contract: 'kit',
    text: 'JSON route given a non-JSON (e.g. multipart) body',
    code: 'UNSUPPORTED_MEDIA_TYPE',
    status: 415,
  },
];

/** Not HTTP errors: codes the contracts store on a job or put in a response's warnings. */
export const CONTRACT_NON_HTTP_CODES = [
  'DOCX_IMPORT_PAYLOAD_MISSING',
  'PARSER_ENGINE_NOT_CONNECTED',
  'FORMULA_DOCX_IMAGE_MATERIALIZE_FAILED',
  'FORMULA_DOCX_ANNOTATED_FALLBACK',
  'DOCX_NATIVE_STYLE_ANSWER_HINT_APPLIED',
  'DOCX_NATIVE_DGNL_FALLBACK',
] as const;
