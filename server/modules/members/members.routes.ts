import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
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
  ResendResponse,
  TenantDetails,
  TenantMember,
  TenantMemberList,
  TokenParam,
} from '../../../contract/members.ts';
import type { Deps } from '../../deps.ts';
import { requireUser, signedIn } from '../../http/session.ts';
import {
  acceptInvitationWithToken,
  acceptPendingInvitation,
  declineInvitationWithToken,
  declinePendingInvitation,
  inviteMember,
  previewInvitation,
  resendInvitation,
} from './invitations.service.ts';
import { changeMemberRole, listTenantMembers, removeMember, tenantDetails } from './members.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody };

/** Tenant members and invitations under /api/tenants/:tenantId/members, and the public invitation link. */
export function registerMemberRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = deps;

  r.get(
    '/api/tenants/:tenantId/details',
    { onRequest: signedIn, config: { tenantScoped: true }, schema: { tags: ['members'], params: TenantParam, response: { 200: TenantDetails, ...errors } } },
    async (req) => tenantDetails(db, req.tenantContext),
  );

  r.get(
    '/api/tenants/:tenantId/members',
    {
      onRequest: signedIn,
      config: { tenantScoped: true },
      schema: { tags: ['members'], params: TenantParam, querystring: MemberListQuery, response: { 200: TenantMemberList, ...errors } },
    },
    async (req) => listTenantMembers(db, req.tenantContext, req.query),
  );

  r.post(
    '/api/tenants/:tenantId/members',
    {
      onRequest: signedIn,
      config: { tenantScoped: true },
      schema: { tags: ['members'], params: TenantParam, body: InviteMemberBody, response: { 201: InviteMemberResponse, ...errors } },
    },
    async (req, reply) => reply.code(201).send(await inviteMember(deps, req.log, req.tenantContext, req.body)),
  );

  r.route({
    method: ['PATCH', 'PUT'],
    url: '/api/tenants/:tenantId/members/:memberId',
    onRequest: signedIn,
    config: { tenantScoped: true },
    schema: { tags: ['members'], params: MemberParams, body: ChangeRoleBody, response: { 200: TenantMember, ...errors } },
    handler: async (req) => changeMemberRole(db, req.tenantContext, req.params.memberId, req.body.role),
  });

  r.delete(
    '/api/tenants/:tenantId/members/:memberId',
    { onRequest: signedIn, config: { tenantScoped: true }, schema: { tags: ['members'], params: MemberParams, response: { 200: Ok, ...errors } } },
    async (req) => {
      const ctx = req.tenantContext;
      const removedUserId = await removeMember(db, ctx, req.params.memberId);
      if (removedUserId) deps.bus.revokeAccess({ userId: removedUserId, tenantId: ctx.tenant.id });
      return { ok: true as const };
    },
  );

  r.post(
    '/api/tenants/:tenantId/members/:memberId/resend',
    { onRequest: signedIn, config: { tenantScoped: true }, schema: { tags: ['members'], params: MemberParams, response: { 200: ResendResponse, ...errors } } },
    async (req) => resendInvitation(deps, req.log, req.tenantContext, req.params.memberId),
  );

  // The public link: preview, accept (signed in), decline; registering a new person from it signs them in, so that
  // route is auth's (auth.routes.ts).
  r.get('/api/invitations/:token', { schema: { tags: ['invitations'], params: TokenParam, response: { 200: InvitationPreview, ...errors } } }, async (req) =>
    previewInvitation(db, req.params.token),
  );

  r.post(
    '/api/invitations/:token/accept',
    { schema: { tags: ['invitations'], params: TokenParam, response: { 200: AcceptInvitationResponse, ...errors } } },
    async (req) => acceptInvitationWithToken(db, req.params.token, requireUser(req)),
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
