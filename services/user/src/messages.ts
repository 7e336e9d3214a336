// Texts of the user service's refusals; one place, so tests and routes agree.
export const MSG = {
  userNotFound: 'User not found',
  emailTaken: 'Email is already in use',
  phoneTaken: 'Phone number is already in use',
  notYourProfile: 'Only the profile owner or an admin may do this',
  actorRequired: 'Actor headers are required',
  snapshotAdminOnly: 'Only an admin may write a profile snapshot',
  snapshotIdMismatch: 'Snapshot id does not match the user id in the path',
  busy: 'The profile changed concurrently too often; try again',
} as const;
