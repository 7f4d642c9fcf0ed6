import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALERT_MSG } from './alerts.ts';
import { CLIENT_MSG } from './clients.ts';
import { INTEGRATION_MSG } from './integrations.ts';
import { MEMBERS_MSG } from './members.ts';
import { MSG, OWN_MSG } from './messages.ts';
import { SYSTEM_MSG } from './system.ts';

// Written out here letter for letter, not imported: a changed wording in messages.ts must fail this file.

/** Texts copied from the specification (../shared/SPEC.md). */
const SPEC_TEXTS = {
  loading: 'Loading...',
  crash: 'An error has occurred. Our team has been notified.',
  noTenant: 'No tenant selected',
  noPermission: "You don't have permission to access this page",
  emailRequired: 'Email is required',
  nameRequired: 'Name is required',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 6 characters',
  passwordsDoNotMatch: 'Passwords do not match',
  orgNameRequired: 'Organization name is required',
  selectPlan: 'Please select a plan',
  registrationSuccess: 'Registration successful! Redirecting to dashboard...',
  registrationFailed: 'Registration failed. Please try again.',
  googleRegistrationFailed: 'Registration with Google failed. Please try again.',
  fillAllFields: 'Please fill in all fields',
  authFailed: 'Authentication failed',
  googleSignInFailed: 'Google sign in failed',
  displayNameEmpty: 'Display name cannot be empty',
  emailCannotChange: 'Email cannot be changed',
  profileUpdateFailed: 'Failed to update profile',
  resetEmailFailed: 'Failed to send password reset email',
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
  invalidDate: 'Invalid Date',
  notAvailable: 'N/A',
  pricingLoadFailedHome: 'Unable to load pricing plans. Please try again later.',
  noPublicPlans: 'No pricing plans available at the moment. Please contact us for more information.',
  cannotDeleteDefaultPlan: 'Cannot delete the default pricing plan',
  onlySuperAdminsModifyPlans: 'Only super admins can modify pricing plans',
  onlySuperAdminsDeletePlans: 'Only super admins can delete pricing plans',
  onlySuperAdminsPricingSettings: 'Only super admins can update pricing settings',
  noAlertsMatch: 'No alerts match your filters.',
  pricingLoadFailed: 'Failed to load pricing plans',
  pricingSaveFailed: 'Failed to save pricing plan',
  pricingDeleteFailed: 'Failed to delete pricing plan',
  pricingSettingsFailed: 'Failed to update pricing settings',
  tenantsLoadFailed: 'Failed to load tenants. Please try again.',
  tenantAddFailed: 'Failed to add tenant. Please try again.',
  tenantUpdateFailed: 'Failed to update tenant. Please try again.',
  tenantDeleteFailed: 'Failed to delete tenant. Please try again.',
  systemUsersLoadFailed: 'Failed to load users. Please try again.',
  systemUserAddFailed: 'Failed to add user. Please try again.',
  systemUserRoleFailed: 'Failed to update user role. Please try again.',
  systemUserDeleteFailed: 'Failed to delete user. Please try again.',
  userAlreadyInTenant: 'User already exists in this tenant',
  tenantUsersLoadFailed: 'Failed to load tenant users. Please try again.',
  tenantUserAddFailed: 'Failed to add user. Please try again.',
  tenantUserRoleFailed: 'Failed to update user role. Please try again.',
  userNotFoundInTenant: 'User not found in tenant',
  tenantUserRemoveFailed: 'Failed to remove user. Please try again.',
  adminCheckFailed: 'Failed to check admin status.',
  notificationPrefsSaveFailed: 'Failed to save notification preferences',
  browserNotificationsEnabled: 'Browser notifications enabled successfully',
  browserNotificationsDenied: 'Browser notification permission was not granted',
  escalationLoadFailed: 'Failed to load data. Please try again.',
  policyCreateFailed: 'Failed to create policy. Please try again.',
  policyUpdateFailed: 'Failed to update policy. Please try again.',
  policyDeleteFailed: 'Failed to delete policy. Please try again.',
  policyNameRequired: 'Policy name is required',
  level1UserRequired: 'At least one user must be assigned to Level 1',
  noEscalationPolicies: 'No escalation policies found. Create your first policy to get started.',
  noUsersAssigned: 'No users assigned',
  unknownUser: 'Unknown User',
  noSchedules: 'No on-call schedules found. Create your first schedule to get started.',
  scheduleNameRequired: 'Schedule name is required',
  invalidDateFormat: 'Invalid date format',
  endAfterStart: 'End date must be after start date',
  noShiftsDefined: 'No shifts defined for {day}',
  primaryOnCallRequired: 'Primary on-call is required for all shifts on {day}',
};

/** Our own texts, where the specification is silent. */
const OWN_TEXTS = {
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
};

/** Texts of the specification kept beside their module's other messages. */
const SPEC_TEXTS_ELSEWHERE: Array<[string, string, string]> = [
  ['MEMBERS_MSG.ownerProtected', MEMBERS_MSG.ownerProtected, 'Owners cannot be edited or removed'],
  ['SYSTEM_MSG.planRequired', SYSTEM_MSG.planRequired, 'Please select a plan'],
  ['CLIENT_MSG.updateForbidden', CLIENT_MSG.updateForbidden, 'You do not have permission to update this client'],
  ['CLIENT_MSG.deleteForbidden', CLIENT_MSG.deleteForbidden, 'You do not have permission to delete this client'],
  ['ALERT_MSG.statCritical', ALERT_MSG.statCritical, 'Critical Alerts'],
  ['ALERT_MSG.statHigh', ALERT_MSG.statHigh, 'High Priority'],
  ['ALERT_MSG.statMedium', ALERT_MSG.statMedium, 'Medium Priority'],
  ['ALERT_MSG.statLowInfo', ALERT_MSG.statLowInfo, 'Low/Info'],
  ['ALERT_MSG.activeAlerts', ALERT_MSG.activeAlerts, 'Active Alerts'],
  ['ALERT_MSG.manageClients', ALERT_MSG.manageClients, 'Manage Clients'],
  ['ALERT_MSG.refresh', ALERT_MSG.refresh, 'Refresh'],
  ['INTEGRATION_MSG.unknownClient', INTEGRATION_MSG.unknownClient, 'Client not found'],
];

// The specification sits beside the repository (CI clones it there); without it only the pins run.
const specFile = new URL('../../shared/SPEC.md', import.meta.url);
const spec = fs.existsSync(specFile) ? fs.readFileSync(specFile, 'utf8') : null;

describe('contract/messages.ts', () => {
  it('has exactly the pinned spec texts (a new text gets its pin here)', () => {
    expect(Object.keys(MSG).sort()).toEqual(Object.keys(SPEC_TEXTS).sort());
  });
  it.each(Object.entries(SPEC_TEXTS))('MSG.%s is the spec text', (key, text) => {
    expect(MSG[key as keyof typeof MSG]).toBe(text);
  });

  it('has exactly the pinned texts of our own', () => {
    expect(Object.keys(OWN_MSG).sort()).toEqual(Object.keys(OWN_TEXTS).sort());
  });
  it.each(Object.entries(OWN_TEXTS))('OWN_MSG.%s keeps its wording', (key, text) => {
    expect(OWN_MSG[key as keyof typeof OWN_MSG]).toBe(text);
  });

  it.each(SPEC_TEXTS_ELSEWHERE)('%s is the spec text', (_name, value, text) => {
    expect(value).toBe(text);
  });

  it.runIf(spec !== null)('finds every pinned spec text, letter for letter, in the specification', () => {
    const missing = [...Object.values(SPEC_TEXTS), ...SPEC_TEXTS_ELSEWHERE.map(([, , text]) => text)].filter((text) => !spec!.includes(text));
    expect(missing).toEqual([]);
  });
});
