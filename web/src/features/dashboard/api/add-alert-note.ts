import type { AlertDetail } from '../../../../../contract/alerts.ts';
import { api } from '../../../lib/api.ts';
import { alertsPath } from './alerts-path.ts';
import { useAlertMutation } from './alert-action.ts';

export const addAlertNote = (tenantId: string, alertId: string, text: string) =>
  api<AlertDetail>(`${alertsPath(tenantId)}/${encodeURIComponent(alertId)}/notes`, { method: 'POST', body: { text } });

export const useAddAlertNote = (tenantId: string, alertId: string) => useAlertMutation(tenantId, alertId, (text: string) => addAlertNote(tenantId, alertId, text));
