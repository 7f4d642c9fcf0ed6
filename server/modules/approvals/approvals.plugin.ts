import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import multipart from '@fastify/multipart';
import { APPROVAL_LIMITS } from '../../../contract/approvals.ts';
import type { Deps } from '../../deps.ts';
import type { JobHandler } from '../../jobs/job-worker.ts';
import { listActiveMemberAccounts } from '../members/members.service.ts';
import * as repo from './approvals.repository.ts';
import { registerApprovalRoutes } from './approvals.routes.ts';
import { registerShiftSwapRoutes } from './shift-swaps.routes.ts';
import { APPROVAL_JOB, expireRequest, notificationText, type ApprovalDeps, type NotifyPayload } from './approvals.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    approvals: ApprovalDeps;
  }
}

/**
 * Approval workflows: the routes (with multipart uploads, in a scope of their own so no other route accepts
 * multipart bodies), and the two kinds of timed work they give the job runner: level expiry and notifications.
 */
async function approvals(app: FastifyInstance, deps: Deps) {
  const { db } = deps;
  const { worker, clock } = app.jobs;
  const { notifier } = app.notifications;
  const approvalDeps: ApprovalDeps = { db, bus: deps.bus, clock, wake: () => worker.wake() };
  app.decorate('approvals', approvalDeps);

  const expire: JobHandler = async (_job, { payload, now }) => {
    const p = payload as { tenantId: string; requestId: string; level: number };
    await expireRequest(approvalDeps, p.tenantId, p.requestId, p.level, now);
  };

  /** One notification by one channel, through the notifier (the person's preferences decide); a transient failure is retried. */
  const notify: JobHandler = async (_job, { payload, finalAttempt }) => {
    const p = payload as unknown as NotifyPayload;
    const request = await repo.findRequest(db, p.tenantId, p.requestId);
    if (!request) return;
    // "Please decide" is stale once the request moved on or the person is no longer asked.
    if (p.event === 'awaiting') {
      const current = repo.levelsOf(request)[request.current_level];
      if (request.status !== 'pending' || !current?.approvers.includes(p.userId)) return;
    }
    const [member] = await listActiveMemberAccounts(db, p.tenantId, [p.userId]);
    if (!member) return;
    const url = `${deps.config.publicUrl}/app/approval-workflows?request=${encodeURIComponent(request.id)}`;
    const { subject, text } = notificationText(p, request, url);
    const message = { purpose: 'approval' as const, title: subject, text, summary: text.split('\n\n')[0]!, url };
    const [outcome] = await notifier.notify({ userId: p.userId, email: member.email }, message, [p.channel], finalAttempt);
    if (outcome?.outcome === 'pending') throw outcome.error;
  };

  app.jobs.handle(APPROVAL_JOB.expire, expire);
  app.jobs.handle(APPROVAL_JOB.notify, notify);
  registerShiftSwapRoutes(app, approvalDeps);

  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: {
        fileSize: APPROVAL_LIMITS.attachmentBytes,
        // One more than allowed, so the sixth file is seen and refused with its own text.
        files: APPROVAL_LIMITS.attachments + 1,
        fields: 4,
        fieldSize: 256 * 1024,
        parts: APPROVAL_LIMITS.attachments + 5,
        headerPairs: 50,
      },
    });
    registerApprovalRoutes(scope, approvalDeps);
  });
}

export const approvalsPlugin = fp(approvals, { name: 'approvals', dependencies: ['jobs', 'notifications'] });
