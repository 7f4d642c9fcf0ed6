import { z } from 'zod';

// The weekly digest (issue 31): one email on Monday at 08:00 in the person's own zone with the last week of each
// tenant they belong to; a signed link in it turns it off; the signed-in person can preview it.

export const DIGEST_MSG = {
  linkInvalid: 'This link is invalid.',
  turnedOff: 'The weekly digest is off. You can turn it back on under Profile → Notifications.',
  notMember: 'Organization not found.',
} as const;

/** The signed token of a digest's "turn off" link: a person id and its signature (43 base64url characters). */
export const DigestOffParam = z.object({ token: z.string().min(1).max(200) });

/** What a "turn off" link says: whose digest, and whether it is on. */
export const DigestOffInfo = z.object({ email: z.string(), weeklyDigest: z.boolean() });
export type DigestOffInfo = z.infer<typeof DigestOffInfo>;

export const DigestPreviewQuery = z.object({ tenantId: z.string().min(1).max(100).optional() });
