// Contract-fixed texts and the ones we chose; one place, so tests and routes agree.
export const MSG = {
  loggedIn: 'Logged in',
  invalidCredentials: 'Invalid email or password',
  accountDisabled: 'Account is not active',
  tooManyAttempts: 'Too many failed login attempts; try again later',
  busy: 'Too many requests in progress; try again shortly',
  emailTaken: 'Email is already registered',
  phoneTaken: 'Phone number is already registered',
  invalidRefresh: 'Invalid or expired refresh token',
  refreshRaced: 'Refresh token was just used by a concurrent request; use the newest refresh token',
  refreshReused: 'Refresh token was already used; the session has been revoked',
  accessRequired: 'Access token is required',
  invalidAccess: 'Invalid or expired access token',
} as const;
