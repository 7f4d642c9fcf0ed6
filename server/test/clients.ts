import type { Agent, TestEnv } from './test-app.ts';

/** The URL of a tenant's clients, or of one client. */
export const clientsUrl = (tenantId: string, clientId?: string) => `/api/tenants/${tenantId}/clients${clientId ? `/${clientId}` : ''}`;

/** Raises a tenant's plan limit, as a plan change by a super admin would. */
export async function setMaxClients(env: TestEnv, tenantId: string, max: number) {
  await env.deps.db.updateTable('tenants').set({ max_clients: max }).where('id', '=', tenantId).execute();
}

/** Creates an active client through the API (unless `body` says otherwise) and returns it (throws unless 201). */
export async function createClient(agent: Agent, tenantId: string, body: Record<string, unknown>) {
  const res = await agent.post(clientsUrl(tenantId), { status: 'active', ...body });
  if (res.statusCode !== 201) throw new Error(`createClient failed: ${res.statusCode} ${res.body}`);
  return res.data;
}
