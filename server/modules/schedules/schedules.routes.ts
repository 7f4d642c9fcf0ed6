import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, Ok, TenantParam } from '../../../contract/common.ts';
import {
  CalendarFeedCreated,
  CalendarFeedParams,
  MyOnCall,
  OnCallList,
  OnCallMemberList,
  OnCallNow,
  OnCallQuery,
  Override,
  OverrideInput,
  OverrideList,
  OverrideParams,
  Schedule,
  ScheduleInput,
  ScheduleList,
  ScheduleParams,
  Timeline,
  TimelineQuery,
} from '../../../contract/schedules.ts';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { signedIn } from '../../http/session.ts';
import {
  calendarFeedIcs,
  createCalendarFeed,
  createOverride,
  createSchedule,
  deleteOverride,
  deleteSchedule,
  getSchedule,
  listMembersForOnCall,
  listScheduleOverrides,
  listSchedules,
  myOnCall,
  onCallForSchedule,
  onCallForTenant,
  revokeCalendarFeed,
  scheduleTimeline,
  updateSchedule,
} from './schedules.service.ts';
import { registerTakePagerRoutes } from './take-pager.routes.ts';
import { useOnCallCache } from './oncall-cache.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const scoped = { onRequest: signedIn, config: { tenantScoped: true } } as const;
const atOf = (q: { at?: string; from?: string }) => new Date(q.at ?? q.from ?? Date.now());

/**
 * On-call schedules under /api/tenants/:tenantId/onCallSchedules: every member reads, owners and admins write;
 * overrides also by the person replaced. Who is on call, the 14-day timeline, "My on-call" with its secret
 * calendar feed. A schedule of another tenant answers 404 exactly like a missing one.
 */
export function registerScheduleRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = deps;
  const base = '/api/tenants/:tenantId/onCallSchedules';
  const tags = ['schedules'];
  // Who is on call reads through a per-tenant cache, forgotten on every instance when what it holds changes.
  useOnCallCache(app, deps);

  r.get(base, { ...scoped, schema: { tags, params: TenantParam, response: { 200: ScheduleList, ...errors } } }, async (req) => listSchedules(db, req.tenantContext));
  r.post(base, { ...scoped, schema: { tags, params: TenantParam, body: ScheduleInput, response: { 201: Schedule, ...errors } } }, async (req, reply) =>
    reply.code(201).send(await createSchedule(db, req.tenantContext, req.body)),
  );
  r.get(`${base}/:id`, { ...scoped, schema: { tags, params: ScheduleParams, response: { 200: Schedule, ...errors } } }, async (req) => getSchedule(db, req.tenantContext, req.params.id));
  r.put(`${base}/:id`, { ...scoped, schema: { tags, params: ScheduleParams, body: ScheduleInput, response: { 200: Schedule, ...errors } } }, async (req) =>
    updateSchedule(db, req.tenantContext, req.params.id, req.body),
  );
  r.delete(`${base}/:id`, { ...scoped, schema: { tags, params: ScheduleParams, response: { 200: Ok, ...errors } } }, async (req) => {
    await deleteSchedule(db, req.tenantContext, req.params.id);
    return { ok: true as const };
  });

  r.get(`${base}/:id/onCall`, { ...scoped, schema: { tags, params: ScheduleParams, querystring: OnCallQuery, response: { 200: OnCallNow, ...errors } } }, async (req) =>
    onCallForSchedule(db, req.tenantContext, req.params.id, atOf(req.query)),
  );
  r.get('/api/tenants/:tenantId/onCall', { ...scoped, schema: { tags, params: TenantParam, querystring: OnCallQuery, response: { 200: OnCallList, ...errors } } }, async (req) =>
    onCallForTenant(db, req.tenantContext, atOf(req.query)),
  );
  r.get(`${base}/:id/timeline`, { ...scoped, schema: { tags, params: ScheduleParams, querystring: TimelineQuery, response: { 200: Timeline, ...errors } } }, async (req) =>
    scheduleTimeline(db, req.tenantContext, req.params.id, atOf(req.query)),
  );

  r.get(`${base}/:id/overrides`, { ...scoped, schema: { tags, params: ScheduleParams, response: { 200: OverrideList, ...errors } } }, async (req) =>
    listScheduleOverrides(db, req.tenantContext, req.params.id),
  );
  r.post(`${base}/:id/overrides`, { ...scoped, schema: { tags, params: ScheduleParams, body: OverrideInput, response: { 201: Override, ...errors } } }, async (req, reply) =>
    reply.code(201).send(await createOverride(db, req.tenantContext, req.params.id, req.body)),
  );
  r.delete(`${base}/:id/overrides/:overrideId`, { ...scoped, schema: { tags, params: OverrideParams, response: { 200: Ok, ...errors } } }, async (req) => {
    await deleteOverride(db, req.tenantContext, req.params.id, req.params.overrideId);
    return { ok: true as const };
  });

  // Member names for the shift pickers and cards: every member reads schedules, so every member reads these.
  r.get('/api/tenants/:tenantId/onCallMembers', { ...scoped, schema: { tags, params: TenantParam, response: { 200: OnCallMemberList, ...errors } } }, async (req) =>
    listMembersForOnCall(db, req.tenantContext),
  );

  r.get('/api/tenants/:tenantId/myOnCall', { ...scoped, schema: { tags, params: TenantParam, response: { 200: MyOnCall, ...errors } } }, async (req) =>
    myOnCall(db, req.tenantContext, new Date()),
  );
  r.post('/api/tenants/:tenantId/myOnCall/calendarFeed', { ...scoped, schema: { tags, params: TenantParam, response: { 201: CalendarFeedCreated, ...errors } } }, async (req, reply) =>
    reply.code(201).send(await createCalendarFeed(db, req.tenantContext, deps.config.publicUrl)),
  );
  r.delete('/api/tenants/:tenantId/myOnCall/calendarFeed', { ...scoped, schema: { tags, params: TenantParam, response: { 200: Ok, ...errors } } }, async (req) => {
    await revokeCalendarFeed(db, req.tenantContext);
    return { ok: true as const };
  });

  registerTakePagerRoutes(app, deps);

  // The secret URL a calendar app polls: no session, the token in the path is the only credential.
  r.get('/api/calendarFeeds/:file', { schema: { tags, params: CalendarFeedParams } }, async (req, reply) => {
    const ics = await calendarFeedIcs(db, req.params.file, new Date());
    if (ics === null) throw notFound();
    return reply.type('text/calendar; charset=utf-8').header('cache-control', 'private, max-age=300').send(ics);
  });
}
