import { INTEGRATION_MSG } from '../../../../contract/integrations.ts';
import type { DB } from '../../../db/database.ts';
import { conflict } from '../../../http/errors.ts';
import type { TenantContext } from '../../../http/tenant-context.ts';
import { getManagedIntegration } from '../../integrations/integrations.service.ts';
import { generatedDedupKey } from './ingest.mappers.ts';
import type { IngestService } from './ingest.service.ts';

/**
 * "Send test alert" (the Integrations tab): an info alert through the same path a monitoring tool's event takes,
 * for those who manage integrations; a revoked integration answers 409.
 */
export async function sendTestAlert(db: DB, ingest: IngestService, ctx: TenantContext, integrationId: string) {
  const row = await getManagedIntegration(db, ctx, integrationId);
  if (row.revoked_at) throw conflict(INTEGRATION_MSG.revoked);
  const dedupKey = `test-${generatedDedupKey()}`;
  const outcome = await ingest.process(
    { id: row.id, tenantId: row.tenant_id, clientId: row.client_id, name: row.name },
    {
      action: 'trigger',
      dedupKey,
      title: INTEGRATION_MSG.testAlertTitle,
      description: `Sent by ${ctx.user.display_name} from the Integrations tab to check that "${row.name}" delivers alerts.`,
      priority: 'info',
      source: 'Alertdesk',
      clientRef: null,
      tags: ['test'],
      metadata: { sentBy: ctx.user.display_name, integration: row.name },
    },
  );
  return { alertId: outcome.alertId!, dedupKey };
}
