/**
 * The members texts, without a schema: what the dashboard's first screen needs, so its code carries no zod
 * (issue 33). The contract module beside re-exports it; server code imports from there.
 */

/** Texts of our own for Tenant Administration and invitations (the spec is silent); server and client say the same. */
export const MEMBERS_MSG = {
  verifyByLink: 'To answer this invitation, open the link we emailed you.',
  ownerProtected: 'Owners cannot be edited or removed',
  cannotEditSelf: 'You cannot change your own role',
  cannotRemoveSelf: 'You cannot remove yourself from this organization',
  notInvited: 'This user has already accepted the invitation',
  invitationInvalid: 'This invitation link is invalid or has expired',
  invitationOtherEmail: 'This invitation was sent to a different email address. Sign in with that address to accept it.',
  accountExists: 'An account with this email already exists. Sign in to accept the invitation.',
  invitationSent: 'Invitation sent',
  invitationEmailFailed: 'The invitation was created, but the email could not be sent. Use Resend to try again.',
  tooManyResends: 'Too many invitation emails to this address. Please try again later.',
  roleRequired: 'Role must be User or Admin',
} as const;
