import type { AlertDetail, SnoozeBody } from '../../../../../contract/alerts.ts';
import { api } from '../../../lib/api.ts';
import { useAlertMutation } from './alert-action.ts';
import { alertsPath } from './alerts-path.ts';

/** Snooze (`{ minutes }` or `{ until }`) or unsnooze (null) one alert; the answer is the alert as it is now. */
export const useSnoozeAlert = (tenantId: string, alertId: string) =>
  useAlertMutation(tenantId, alertId, (body: SnoozeBody | null) =>
    api<AlertDetail>(`${alertsPath(tenantId)}/${encodeURIComponent(alertId)}/${body ? 'snooze' : 'unsnooze'}`, { method: 'POST', body: body ?? {} }),
  );
