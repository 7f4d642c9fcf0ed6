import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, TenantParam } from '../../../contract/common.ts';
import { PagerOptions, PagerSetting, PagerSettingInput, TakePagerInput, TakePagerParams, TakePagerResult } from '../../../contract/shift-swaps.ts';
import type { Deps } from '../../deps.ts';
import type { JobHandler } from '../../jobs/job-worker.ts';
import { signedIn } from '../../http/session.ts';
import { listActiveMemberAccounts } from '../members/members.service.ts';
import { PAGER_TAKEN_JOB, pagerOptions, pagerTakenText, setPagerSetting, takePager, type PagerTakenPayload } from './take-pager.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const scoped = { onRequest: signedIn, config: { tenantScoped: true } } as const;

/**
 * "Take the pager now" (issue 27): the schedules the caller may take the pager of, taking it, the owners' and admins'
 * participants-only setting, and the job that tells each person replaced (through the notifier: their preferences).
 */
export function registerTakePagerRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = deps;
  const { clock, worker } = app.jobs;
  const tags = ['schedules'];
  const base = '/api/tenants/:tenantId/onCallSchedules/:id';

  const notify: JobHandler = async (_job, { payload, finalAttempt }) => {
    const p = payload as unknown as PagerTakenPayload;
    const [member] = await listActiveMemberAccounts(db, p.tenantId, [p.userId]);
    if (!member) return;
    const url = `${deps.config.publicUrl}/app/profile`;
    const message = { purpose: 'oncall' as const, ...pagerTakenText(p, url), url };
    const outcomes = await app.notifications.notifier.notify({ userId: p.userId, email: member.email }, message, ['email', 'push'], finalAttempt);
    const pending = outcomes.find((o) => o.outcome === 'pending');
    if (pending) throw pending.error;
  };
  app.jobs.handle(PAGER_TAKEN_JOB, notify);

  r.get('/api/tenants/:tenantId/pagerOptions', { ...scoped, schema: { tags, params: TenantParam, response: { 200: PagerOptions, ...errors } } }, async (req) =>
    pagerOptions(db, req.tenantContext, clock()),
  );
  r.post(`${base}/takePager`, { ...scoped, schema: { tags, params: TakePagerParams, body: TakePagerInput, response: { 201: TakePagerResult, ...errors } } }, async (req, reply) =>
    reply.code(201).send(await takePager({ db, clock, wake: () => worker.wake() }, req.tenantContext, req.params.id, { hours: req.body.hours, note: req.body.note })),
  );
  r.put(`${base}/pagerSetting`, { ...scoped, schema: { tags, params: TakePagerParams, body: PagerSettingInput, response: { 200: PagerSetting, ...errors } } }, async (req) =>
    setPagerSetting(db, req.tenantContext, req.params.id, req.body.participantsOnly, clock()),
  );
}
