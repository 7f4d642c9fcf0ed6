import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MeResponse } from '../../../contract/auth.ts';
import { ErrorBody, Ok, TenantParam } from '../../../contract/common.ts';
import {
  AcceptInvitationResponse,
  ChangeRoleBody,
  InvitationPreview,
  InviteMemberBody,
  InviteMemberResponse,
  MemberListQuery,
  MemberParams,
  PendingInvitationParams,
  RegisterFromInvitationBody,
  ResendResponse,
  TenantDetails,
  TenantMember,
  TenantMemberList,
  TokenParam,
} from '../../../contract/members.ts';
import type { Deps } from '../../deps.ts';
import { unauthorized } from '../../http/errors.ts';
import { requireUser, setSessionCookie } from '../../http/session.ts';
import { requireAbility, requireTenant } from '../../http/tenant-context.ts';
import { describeMe } from '../auth/auth.service.ts';
import { createSession } from '../auth/sessions.repository.ts';
import { findUserById } from '../users/users.repository.ts';
import {
  acceptInvitationWithToken,
  acceptPendingInvitation,
  changeMemberRole,
  declineInvitationWithToken,
  declinePendingInvitation,
  inviteMember,
  listTenantMembers,
  previewInvitation,
  registerFromInvitation,
  removeMember,
  resendInvitation,
  tenantDetails,
} from './members.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody };

/** Tenant members and invitations under /api/tenants/:tenantId/members, and the public invitation link (issue 5). */
export function registerMemberRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = deps;
  // A request without a session answers 401 before its body is validated.
  const signedIn = async (req: FastifyRequest) => {
    requireUser(req);
  };

  r.get(
    '/api/tenants/:tenantId/details',
    { onRequest: signedIn, schema: { tags: ['members'], params: TenantParam, response: { 200: TenantDetails, ...errors } } },
    async (req) => {
      const ctx = await requireTenant(db, req, req.params.tenantId);
      requireAbility(ctx, 'manageMembers');
      return tenantDetails(db, ctx);
    },
  );

  r.get(
    '/api/tenants/:tenantId/members',
    { onRequest: signedIn, schema: { tags: ['members'], params: TenantParam, querystring: MemberListQuery, response: { 200: TenantMemberList, ...errors } } },
    async (req) => {
      const ctx = await requireTenant(db, req, req.params.tenantId);
      requireAbility(ctx, 'manageMembers');
      return listTenantMembers(db, ctx, req.query);
    },
  );

  r.post(
    '/api/tenants/:tenantId/members',
    { onRequest: signedIn, schema: { tags: ['members'], params: TenantParam, body: InviteMemberBody, response: { 201: InviteMemberResponse, ...errors } } },
    async (req, reply) => {
      const ctx = await requireTenant(db, req, req.params.tenantId);
      requireAbility(ctx, 'manageMembers');
      return reply.code(201).send(await inviteMember(deps, req.log, ctx, req.body));
    },
  );

  r.route({
    method: ['PATCH', 'PUT'],
    url: '/api/tenants/:tenantId/members/:memberId',
    onRequest: signedIn,
    schema: { tags: ['members'], params: MemberParams, body: ChangeRoleBody, response: { 200: TenantMember, ...errors } },
    handler: async (req) => {
      const ctx = await requireTenant(db, req, req.params.tenantId);
      requireAbility(ctx, 'manageMembers');
      return changeMemberRole(db, ctx, req.params.memberId, req.body.role);
    },
  });

  r.delete(
    '/api/tenants/:tenantId/members/:memberId',
    { onRequest: signedIn, schema: { tags: ['members'], params: MemberParams, response: { 200: Ok, ...errors } } },
    async (req) => {
      const ctx = await requireTenant(db, req, req.params.tenantId);
      requireAbility(ctx, 'manageMembers');
      await removeMember(db, ctx, req.params.memberId);
      return { ok: true as const };
    },
  );

  r.post(
    '/api/tenants/:tenantId/members/:memberId/resend',
    { onRequest: signedIn, schema: { tags: ['members'], params: MemberParams, response: { 200: ResendResponse, ...errors } } },
    async (req) => {
      const ctx = await requireTenant(db, req, req.params.tenantId);
      requireAbility(ctx, 'manageMembers');
      return resendInvitation(deps, req.log, ctx, req.params.memberId);
    },
  );

  // The public link: preview, accept (signed in), register (new person), decline.
  r.get('/api/invitations/:token', { schema: { tags: ['invitations'], params: TokenParam, response: { 200: InvitationPreview, ...errors } } }, async (req) =>
    previewInvitation(db, req.params.token),
  );

  r.post(
    '/api/invitations/:token/accept',
    { schema: { tags: ['invitations'], params: TokenParam, response: { 200: AcceptInvitationResponse, ...errors } } },
    async (req) => acceptInvitationWithToken(db, req.params.token, requireUser(req)),
  );

  r.post(
    '/api/invitations/:token/register',
    { schema: { tags: ['invitations'], params: TokenParam, body: RegisterFromInvitationBody, response: { 200: AcceptInvitationResponse.extend({ me: MeResponse }), ...errors } } },
    async (req, reply) => {
      const joined = await registerFromInvitation(db, req.params.token, req.body);
      setSessionCookie(req, reply, await createSession(db, joined.userId, { userAgent: req.headers['user-agent'], ip: req.ip }));
      const user = await findUserById(db, joined.userId);
      if (!user) throw unauthorized();
      return { tenantId: joined.tenantId, tenantName: joined.tenantName, me: await describeMe(db, user) };
    },
  );

  r.post('/api/invitations/:token/decline', { schema: { tags: ['invitations'], params: TokenParam, response: { 200: Ok, ...errors } } }, async (req) => {
    await declineInvitationWithToken(db, req.params.token);
    return { ok: true as const };
  });

  // Invitations addressed to the signed-in user's email, listed in GET /api/me.
  r.post(
    '/api/me/invitations/:memberId/accept',
    { schema: { tags: ['invitations'], params: PendingInvitationParams, response: { 200: AcceptInvitationResponse, ...errors } } },
    async (req) => acceptPendingInvitation(db, requireUser(req), req.params.memberId),
  );

  r.post(
    '/api/me/invitations/:memberId/decline',
    { schema: { tags: ['invitations'], params: PendingInvitationParams, response: { 200: Ok, ...errors } } },
    async (req) => {
      await declinePendingInvitation(db, requireUser(req), req.params.memberId);
      return { ok: true as const };
    },
  );
}
