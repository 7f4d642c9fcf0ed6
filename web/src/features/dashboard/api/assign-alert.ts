import type { AlertDetail } from '../../../../../contract/alerts.ts';
import { api } from '../../../lib/api.ts';
import { alertsPath } from './alerts-path.ts';
import { useAlertMutation } from './alert-action.ts';

export const assignAlert = (tenantId: string, alertId: string, userId: string) =>
  api<AlertDetail>(`${alertsPath(tenantId)}/${encodeURIComponent(alertId)}/assign`, { method: 'POST', body: { userId } });

export const useAssignAlert = (tenantId: string, alertId: string) => useAlertMutation(tenantId, alertId, (userId: string) => assignAlert(tenantId, alertId, userId));
