/** User-visible texts from the product specification, copied letter for letter. Tests assert these. */
export const MSG = {
  loading: 'Loading...',
  crash: 'An error has occurred. Our team has been notified.',
  noTenant: 'No tenant selected',
  noPermission: "You don't have permission to access this page",
  // Registration step 1, in the order they are checked
  emailRequired: 'Email is required',
  nameRequired: 'Name is required',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 6 characters',
  passwordsDoNotMatch: 'Passwords do not match',
  // Registration step 2
  orgNameRequired: 'Organization name is required',
  selectPlan: 'Please select a plan',
  registrationSuccess: 'Registration successful! Redirecting to dashboard...',
  registrationFailed: 'Registration failed. Please try again.',
  googleRegistrationFailed: 'Registration with Google failed. Please try again.',
  // Sign-in
  fillAllFields: 'Please fill in all fields',
  authFailed: 'Authentication failed',
  googleSignInFailed: 'Google sign in failed',
  // Profile
  displayNameEmpty: 'Display name cannot be empty',
  emailCannotChange: 'Email cannot be changed',
  profileUpdateFailed: 'Failed to update profile',
  resetEmailFailed: 'Failed to send password reset email',
  // Clients
  clientNameRequired: 'Client name is required',
  statusRequired: 'Status is required',
  invalidEmail: 'Invalid email address',
  invalidWebsite: 'Invalid website URL',
  clientDeleteConfirm: 'Are you sure you want to delete this client?',
  clientsLoadFailed: 'Failed to load clients. Please try again.',
  clientGetFailed: 'Failed to get client. Please try again.',
  clientCreateFailed: 'Failed to create client. Please try again.',
  clientUpdateFailed: 'Failed to update client. Please try again.',
  clientDeleteFailed: 'Failed to delete client. Please try again.',
  clientNotFound: 'Client not found',
  // Dates
  invalidDate: 'Invalid Date',
  notAvailable: 'N/A',
  // Pricing
  pricingLoadFailedHome: 'Unable to load pricing plans. Please try again later.',
  noPublicPlans: 'No pricing plans available at the moment. Please contact us for more information.',
  cannotDeleteDefaultPlan: 'Cannot delete the default pricing plan',
  onlySuperAdminsModifyPlans: 'Only super admins can modify pricing plans',
  onlySuperAdminsDeletePlans: 'Only super admins can delete pricing plans',
  onlySuperAdminsPricingSettings: 'Only super admins can update pricing settings',
  // Alerts
  noAlertsMatch: 'No alerts match your filters.',
  // Pricing (System Administration)
  pricingLoadFailed: 'Failed to load pricing plans',
  pricingSaveFailed: 'Failed to save pricing plan',
  pricingDeleteFailed: 'Failed to delete pricing plan',
  pricingSettingsFailed: 'Failed to update pricing settings',
  // System admin
  tenantsLoadFailed: 'Failed to load tenants. Please try again.',
  tenantAddFailed: 'Failed to add tenant. Please try again.',
  tenantUpdateFailed: 'Failed to update tenant. Please try again.',
  tenantDeleteFailed: 'Failed to delete tenant. Please try again.',
  systemUsersLoadFailed: 'Failed to load users. Please try again.',
  systemUserAddFailed: 'Failed to add user. Please try again.',
  systemUserRoleFailed: 'Failed to update user role. Please try again.',
  systemUserDeleteFailed: 'Failed to delete user. Please try again.',
  // Tenant users (Tenant Administration)
  userAlreadyInTenant: 'User already exists in this tenant',
  tenantUsersLoadFailed: 'Failed to load tenant users. Please try again.',
  tenantUserAddFailed: 'Failed to add user. Please try again.',
  tenantUserRoleFailed: 'Failed to update user role. Please try again.',
  userNotFoundInTenant: 'User not found in tenant',
  tenantUserRemoveFailed: 'Failed to remove user. Please try again.',
  adminCheckFailed: 'Failed to check admin status.',
  // Profile: notifications
  notificationPrefsSaveFailed: 'Failed to save notification preferences',
  browserNotificationsEnabled: 'Browser notifications enabled successfully',
  browserNotificationsDenied: 'Browser notification permission was not granted',
  // Escalation policies
  escalationLoadFailed: 'Failed to load data. Please try again.',
  policyCreateFailed: 'Failed to create policy. Please try again.',
  policyUpdateFailed: 'Failed to update policy. Please try again.',
  policyDeleteFailed: 'Failed to delete policy. Please try again.',
  policyNameRequired: 'Policy name is required',
  level1UserRequired: 'At least one user must be assigned to Level 1',
  noEscalationPolicies: 'No escalation policies found. Create your first policy to get started.',
  noUsersAssigned: 'No users assigned',
  unknownUser: 'Unknown User',
  // On-call schedules (sections 2, 5 and 8); {day} is a weekday name. Loading failures use escalationLoadFailed.
  noSchedules: 'No on-call schedules found. Create your first schedule to get started.',
  scheduleNameRequired: 'Schedule name is required',
  invalidDateFormat: 'Invalid date format',
  endAfterStart: 'End date must be after start date',
  noShiftsDefined: 'No shifts defined for {day}',
  primaryOnCallRequired: 'Primary on-call is required for all shifts on {day}',
} as const;

/** Messages of our own (the spec is silent), kept here so server and client say the same thing. */
export const OWN_MSG = {
  invalidCredentials: 'Invalid email or password',
  emailTaken: 'An account with this email already exists',
  tooManyAttempts: 'Too many sign-in attempts. Please try again later.',
  tooManyRequests: 'Too many requests. Please try again later.',
  notSignedIn: 'You must be signed in',
  notFound: 'Not found',
  forbidden: 'You do not have permission to do this',
  unknownPlan: 'Please select a plan',
  resetLinkInvalid: 'This password reset link is invalid or has expired',
  resetEmailSent: 'If an account exists for this email, a reset link has been sent.',
  crossOrigin: 'Cross-origin request refused',
  tooManyStreams: 'Too many live connections are open for this account. Close some tabs and try again.',
  unavailable: 'The service is temporarily unavailable. Please try again in a moment.',
  alreadyHasTenant: 'You already belong to an organization',
  oidcNotConfigured: 'Sign in with Google is not configured on this server',
} as const;

/** Minutes a one-time sign-in link works. */
export const SIGN_IN_LINK_TTL_MINUTES = 15;

/**
 * One-time sign-in links (issue 25): the way in that failed guesses from other addresses cannot block, since it
 * needs the account's mailbox. Texts of our own (the spec is silent), said the same by server and web.
 */
export const SIGN_IN_LINK_MSG = {
  /** The 429 of a sign-in refused by the per-account ceiling; the same for an email without an account. */
  accountThrottled: 'Too many failed sign-in attempts for this email. Try again later, or sign in with a one-time link we email you.',
  sent: (email: string) => `If an account exists for ${email}, we sent a sign-in link. It works once, for ${SIGN_IN_LINK_TTL_MINUTES} minutes.`,
  invalid: 'This sign-in link is not valid. Ask for a new one on the sign-in page.',
  expired: 'This sign-in link has expired. Ask for a new one on the sign-in page.',
  used: 'This sign-in link has already been used. Ask for a new one on the sign-in page.',
  requestFailed: 'Failed to send the sign-in link. Please try again.',
  useFailed: 'Could not sign you in with this link. Please try again.',
} as const;

/** `error.code` of a sign-in refused because the account (not this address) is throttled: the web offers a link. */
export const ACCOUNT_THROTTLED = 'account_throttled';

/** The profile's calendar feed (issue 32): renewing replaces the secret link, so the screen asks first. Our own texts. */
export const CALENDAR_FEED_MSG = {
  renewTitle: 'Renew calendar link',
  renewQuestion:
    'Renew your calendar link? The current link stops working at once: calendars subscribed to it stop updating until you subscribe them to the new link.',
  renewConfirm: 'Renew link',
  renewKeep: 'Keep current link',
  renewed: 'Calendar link renewed',
} as const;
