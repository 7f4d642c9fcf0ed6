import { randomUUID } from 'node:crypto';
import { CLIENT_MSG, clientPlanLimitMessage, type ClientInput, type ClientListQuery } from '../../../contract/clients.ts';
import { MSG } from '../../../contract/messages.ts';
import type { DB } from '../../db/database.ts';
import { now } from '../../db/database.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import { writeWithPolicyRef } from '../escalation/escalation-policies.service.ts';
import { authorize } from '../tenants/tenants.policy.ts';
import { lockTenant } from '../tenants/tenants.service.ts';
import * as repo from './clients.repository.ts';

export const clientNotFound = () => notFound(MSG.clientNotFound);

export async function listClients(db: DB, ctx: TenantContext, q: ClientListQuery) {
  const { items, total } = await repo.listClients(db, ctx.tenant.id, q);
  return { items: items.map(repo.toClient), total, page: q.page, pageSize: q.pageSize };
}

export async function getClient(db: DB, ctx: TenantContext, clientId: string) {
  const row = await repo.findClient(db, ctx.tenant.id, clientId);
  if (!row) throw clientNotFound();
  return repo.toClient(row);
}

/**
 * Creates a client unless the tenant already has as many as its plan allows (403 `plan_limit`: the request is
 * valid but the plan does not entitle it, and repeating it will not help until the plan changes).
 */
export async function createClient(db: DB, ctx: TenantContext, input: ClientInput) {
  authorize(ctx, 'manageClients', CLIENT_MSG.createForbidden);
  const tenantId = ctx.tenant.id;
  const id = randomUUID();
  const insert = () =>
    db.transaction().execute(async (trx) => {
      // Two concurrent creates count one after the other and cannot both take the last place.
      const tenant = await lockTenant(trx, tenantId);
      if (!tenant) throw clientNotFound();
      if ((await repo.countClients(trx, tenantId)) >= tenant.max_clients) {
        throw new AppError(403, 'plan_limit', clientPlanLimitMessage(tenant.max_clients));
      }
      const at = now();
      await repo.insertClient(trx, { id, tenant_id: tenantId, ...repo.clientColumns(input), created_by: ctx.user.id, created_at: at, updated_at: at });
    });
  await writeWithPolicyRef(db, tenantId, input.escalationPolicyId, insert);
  return getClient(db, ctx, id);
}

export async function updateClient(db: DB, ctx: TenantContext, clientId: string, input: ClientInput) {
  authorize(ctx, 'manageClients', CLIENT_MSG.updateForbidden);
  const updated = await writeWithPolicyRef(db, ctx.tenant.id, input.escalationPolicyId, () =>
    repo.updateClient(db, ctx.tenant.id, clientId, { ...repo.clientColumns(input), updated_at: now() }),
  );
  if (!updated) throw clientNotFound();
  return getClient(db, ctx, clientId);
}

export async function deleteClient(db: DB, ctx: TenantContext, clientId: string) {
  authorize(ctx, 'manageClients', CLIENT_MSG.deleteForbidden);
  if (!(await repo.deleteClient(db, ctx.tenant.id, clientId))) throw clientNotFound();
}

// Other modules' way to clients: integrations and the profile page check the clients they name, ingestion resolves
// the client an event names, platform analytics counts them.
export { clientNamesOf, existingClientIds, findClientIdByRef, unsafeCountAllClients } from './clients.repository.ts';
