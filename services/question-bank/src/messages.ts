// Contract-fixed texts and codes.
export const MSG = {
  questionCreated: 'OK',
  questionUpdated: 'Question updated',
  questionDeleted: 'Question deleted',
  questionNotFound: 'Question not found',
  allOrgsAdminOnly: 'allOrgs=1 is allowed only for ADMIN',
  organizationRequired: 'X-Organization-Id is required for writes',
  organizationMismatch: 'organizationId does not match X-Organization-Id',
  folderNotFound: 'Folder not found in this scope',
  notPublishable: 'A PUBLISHED question must satisfy its base type',
  badCursor: 'Invalid cursor',
} as const;

export const CODES = {
  questionNotFound: 'QUESTION_NOT_FOUND',
  folderNotFound: 'FOLDER_NOT_FOUND',
  validation: 'VALIDATION_ERROR',
  forbidden: 'FORBIDDEN',
} as const;
