import { APPROVAL_LEVEL_LABELS, type ApprovalStatus } from '../../../contract/approvals.ts';
import type { NewJob } from '../../jobs/jobs.repository.ts';
import type { Notice } from './approval-flow.ts';

export const APPROVAL_JOB = { expire: 'approval.expire', notify: 'approval.notify' } as const;

/** What a notification job tells a person (the text is written when it is sent). */
export interface NotifyPayload {
  tenantId: string;
  requestId: string;
  userId: string;
  channel: 'email' | 'push';
  /** awaiting: you are asked to decide; progress: your request passed a level; final: your request was decided. */
  event: 'awaiting' | 'progress' | 'final';
  level: string;
  status: ApprovalStatus;
  actorName: string | null;
  comment: string | null;
}

interface RequestRef {
  tenant_id: string;
  id: string;
}

/**
 * Notification jobs for a notice, one per person and channel (each is sent, retried and skipped on its own). Keyed
 * by the request's version: a person is told once per change of the request.
 */
export function notifyJobs(row: RequestRef, version: number, notice: Notice, at: Date): NewJob[] {
  const { to, ...what } = notice;
  return [...new Set(to)].flatMap((userId) =>
    (['email', 'push'] as const).map((channel) => ({
      kind: APPROVAL_JOB.notify,
      uniqueKey: `${APPROVAL_JOB.notify}:${row.id}:${version}:${userId}:${channel}`,
      tenantId: row.tenant_id,
      dueAt: at,
      payload: { tenantId: row.tenant_id, requestId: row.id, userId, channel, ...what } satisfies NotifyPayload,
    })),
  );
}

/** The expiry of a request's level: one job per (request, level); when it fires it checks that nothing moved on. */
export function expiryJob(row: RequestRef, level: number, expiresAt: string): NewJob {
  return {
    kind: APPROVAL_JOB.expire,
    uniqueKey: `${APPROVAL_JOB.expire}:${row.id}:${level}`,
    tenantId: row.tenant_id,
    dueAt: new Date(expiresAt),
    payload: { tenantId: row.tenant_id, requestId: row.id, level },
  };
}

/** The texts of a notification: subject, body, and where it leads. */
export function notificationText(p: NotifyPayload, request: { title: string; description: string; expires_at: string | null }, url: string) {
  const level = APPROVAL_LEVEL_LABELS[p.level as keyof typeof APPROVAL_LEVEL_LABELS] ?? p.level;
  const comment = p.comment ? `\n\nComment: ${p.comment}` : '';
  if (p.event === 'awaiting') {
    return {
      subject: `Approval needed: ${request.title}`,
      text: `${p.actorName ?? 'Someone'} asks for your approval (${level} level):\n\n${request.title}\n\n${request.description}\n\n${request.expires_at ? `Decide by ${request.expires_at.replace('T', ' ').slice(0, 16)} UTC.\n\n` : ''}Open the request: ${url}`,
    };
  }
  if (p.event === 'progress') {
    return {
      subject: `Approved at ${level} level: ${request.title}`,
      text: `${p.actorName ?? 'An approver'} approved your request "${request.title}" at the ${level} level. It now goes to the next level.${comment}\n\nOpen the request: ${url}`,
    };
  }
  const outcome = p.status === 'approved' ? 'approved' : p.status === 'expired' ? 'expired without a decision' : 'rejected';
  const by = p.actorName ? ` by ${p.actorName}` : '';
  return { subject: `Your request was ${p.status}: ${request.title}`, text: `Your request "${request.title}" was ${outcome}${by}.${comment}\n\nOpen the request: ${url}` };
}
