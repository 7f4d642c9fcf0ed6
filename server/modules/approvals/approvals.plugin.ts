import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import multipart from '@fastify/multipart';
import { APPROVAL_LIMITS } from '../../../contract/approvals.ts';
import type { Deps } from '../../deps.ts';
import type { JobHandler } from '../../jobs/job-worker.ts';
import { listActiveMemberAccounts } from '../members/members.repository.ts';
import { DeliveryError } from '../paging/transports.ts';
import { deletePushToken, findPreferences, listPushTargets, toChannelPreferences } from '../profile/profile.repository.ts';
import * as repo from './approvals.repository.ts';
import { registerApprovalRoutes } from './approvals.routes.ts';
import { APPROVAL_JOB, expireRequest, notificationText, type ApprovalDeps, type NotifyPayload } from './approvals.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    approvals: ApprovalDeps;
  }
}

/**
 * Approval workflows: the routes (with multipart uploads, in a scope of their own so no other route accepts
 * multipart bodies), and the two kinds of timed work they give this instance's job worker: level expiry and
 * notifications. Registered after the paging plugin, whose worker and transports it uses.
 */
async function approvals(app: FastifyInstance, deps: Deps) {
  const { db } = deps;
  const { worker, transports, clock } = app.paging;
  const approvalDeps: ApprovalDeps = { db, bus: deps.bus, clock, wake: () => worker.wake() };
  app.decorate('approvals', approvalDeps);

  const expire: JobHandler = async (_job, { payload, now }) => {
    const p = payload as { tenantId: string; requestId: string; level: number };
    await expireRequest(approvalDeps, p.tenantId, p.requestId, p.level, now);
  };

  /** One notification by one channel, by the person's saved preferences (email on; push on with a subscription). */
  const notify: JobHandler = async (_job, { payload }) => {
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
    const prefs = toChannelPreferences(await findPreferences(db, p.userId));
    const url = `${deps.config.publicUrl}/app/approval-workflows?request=${encodeURIComponent(request.id)}`;
    const { subject, text } = notificationText(p, request, url);
    if (p.channel === 'email') {
      if (prefs.email.enabled) await transports.email({ to: member.email, subject: subject.slice(0, 200), text });
      return;
    }
    if (!prefs.push.enabled) return;
    const body = JSON.stringify({ title: subject.slice(0, 200), body: text.split('\n\n')[0]!.slice(0, 300), url });
    for (const target of await listPushTargets(db, p.userId)) {
      try {
        await transports.push(target, body);
      } catch (err) {
        if (err instanceof DeliveryError && err.gone) await deletePushToken(db, p.userId, target.endpoint);
        else app.log.warn({ err }, 'approval push failed');
      }
    }
  };

  worker.handle(APPROVAL_JOB.expire, expire);
  worker.handle(APPROVAL_JOB.notify, notify);

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

export const approvalsPlugin = fp(approvals, { name: 'approvals', dependencies: ['paging'] });
