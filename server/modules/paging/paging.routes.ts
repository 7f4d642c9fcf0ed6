import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody } from '../../../contract/common.ts';
import { AckLinkInfo, AckResult, AckTokenParam, Reachability, ShortAckParam } from '../../../contract/paging.ts';
import { TenantParam } from '../../../contract/common.ts';
import { signedIn } from '../../http/session.ts';
import { tenantReachability } from './reachability.ts';
import type { Deps } from '../../deps.ts';
import { unsafeFindShortAckLink } from './paging.repository.ts';
import { ackLinkSigner } from './ack-links.ts';
import { ackByToken } from './ack-by-token.ts';
import { ACK_LINK_TTL_MS } from './page-delivery.ts';

/**
 * The acknowledge links of pages (email, SMS, push): no session needed, the single-use token names alert and
 * person. GET only describes (mail scanners follow links); POST acknowledges as that person.
 */
export function registerPagingRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const errors = { 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

  const { load, acknowledge } = ackByToken(deps);

  r.get(
    '/api/tenants/:tenantId/reachability',
    { onRequest: signedIn, config: { tenantScoped: true }, schema: { tags: ['paging'], params: TenantParam, response: { 200: Reachability, 401: ErrorBody, ...errors } } },
    async (req) => tenantReachability(deps.db, app.notifications.notifier, req.tenantContext),
  );

  r.get('/api/ack/:token', { schema: { tags: ['paging'], params: AckTokenParam, response: { 200: AckLinkInfo, ...errors } } }, async (req) => {
    const row = await load(req.params.token);
    return {
      alertId: row.alert_id,
      title: row.title,
      priority: row.priority,
      status: row.status,
      source: row.source,
      description: row.description ? row.description.slice(0, 1000) : null,
      createdAt: row.created_at,
      clientName: row.client_name ?? null,
      tenantName: row.tenant_name,
      timeZone: row.time_zone || 'UTC',
      personName: row.display_name || row.email,
      usable: row.used_at === null,
    };
  });

  // An SMS page's short link: the page's attempt row names alert and person; it leads to the signed link's page (which
  // describes, and acknowledges only when its button is pressed). An unknown or expired code leads there too, to say so.
  r.get('/a/:code', { schema: { hide: true, params: ShortAckParam } }, async (req, reply) => {
    const { code } = req.params;
    const row = /^[A-Za-z0-9_-]{12}$/.test(code) ? await unsafeFindShortAckLink(deps.db, code) : undefined;
    const expiresAt = row ? Date.parse(row.created_at) + ACK_LINK_TTL_MS : 0;
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    if (!row || expiresAt <= Date.now()) return reply.redirect('/ack/expired-or-unknown', 302);
    const token = (await ackLinkSigner(deps.db))(row.alert_id, row.user_id, new Date(expiresAt));
    return reply.redirect(`/ack/${token}`, 302);
  });

  r.post('/api/ack/:token', { schema: { tags: ['paging'], params: AckTokenParam, response: { 200: AckResult, ...errors } } }, async (req) => acknowledge(req.params.token));
}
