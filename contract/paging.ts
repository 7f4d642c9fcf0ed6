import { z } from 'zod';
import { AlertPriority, AlertStatus } from './alerts.ts';

export { PAGING_MSG } from './paging-text.ts';

/** How each active member of a tenant can be paged now (the policy form warns about people nobody can reach). */
export const Reachability = z.object({
  smsEnabled: z.boolean(),
  items: z.array(
    z.object({
      userId: z.string(),
      displayName: z.string(),
      email: z.boolean(),
      push: z.boolean(),
      /** SMS on with a phone number (for at least one priority), and an SMS provider configured. */
      sms: z.boolean(),
    }),
  ),
});
export type Reachability = z.infer<typeof Reachability>;

/** An SMS page's short acknowledge link code. */
export const ShortAckParam = z.object({ code: z.string().max(40) });

export const AckTokenParam = z.object({ token: z.string().min(10).max(100).regex(/^[A-Za-z0-9_-]+$/) });

/** What the acknowledge page shows before the person presses the button (a GET never acknowledges). */
export const AckLinkInfo = z.object({
  alertId: z.string(),
  title: z.string(),
  priority: AlertPriority,
  status: AlertStatus,
  source: z.string(),
  /** Trimmed to 1,000 characters. */
  description: z.string().nullable(),
  createdAt: z.string(),
  clientName: z.string().nullable(),
  tenantName: z.string(),
  personName: z.string(),
  /** The person's time zone (IANA; UTC when they have not chosen one): the page shows times in it. */
  timeZone: z.string(),
  /** False once the link was used. */
  usable: z.boolean(),
});
export type AckLinkInfo = z.infer<typeof AckLinkInfo>;

export const AckResult = z.object({ alertId: z.string(), status: AlertStatus, message: z.string() });
export type AckResult = z.infer<typeof AckResult>;
