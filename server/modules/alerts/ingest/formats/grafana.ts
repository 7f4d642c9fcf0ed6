import { z } from 'zod';
import { AlertmanagerAlert, AlertmanagerWebhook } from '../../../../../contract/integrations.ts';
import { formatPriority } from '../../../../../contract/ingest-formats.ts';
import { fromAlertmanager } from '../ingest.mappers.ts';
import { countOf, keyed, validate, type IngestFormat } from './format.ts';

const url = z.string().max(4096).optional();

/**
 * Grafana unified alerting's webhook contact point: Alertmanager's group shape plus Grafana's own fields
 * (grafana.com/docs/grafana/latest/alerting/configure-notifications/manage-contact-points/integrations/webhook-notifier/).
 * Each alert is its own event, keyed by its `fingerprint`; a group may mix firing and resolved alerts.
 */
const GrafanaAlert = AlertmanagerAlert.extend({ silenceURL: url, dashboardURL: url, panelURL: url, valueString: z.string().max(4096).optional() });
const GrafanaWebhook = AlertmanagerWebhook.extend({
  orgId: z.number().optional(),
  title: z.string().max(1024).optional(),
  state: z.string().max(64).optional(),
  alerts: z.array(GrafanaAlert, { error: 'alerts must be a list' }).min(1, 'alerts must not be empty').max(1000, 'At most 1000 alerts per request'),
});

export const grafana: IngestFormat = {
  name: 'grafana',
  summary: 'Grafana alerting webhook contact point',
  count: (body) => countOf(body, 'alerts'),
  parse(body) {
    const hook = validate(GrafanaWebhook, body);
    return fromAlertmanager(hook).map((ev, i) => {
      const a = hook.alerts[i];
      return {
        ...ev,
        dedupKey: keyed('grafana', ev.dedupKey),
        priority: formatPriority('grafana', a.labels.severity),
        source: a.labels.instance || a.labels.grafana_folder || ev.source,
        metadata: { ...ev.metadata, ...(a.dashboardURL ? { dashboardURL: a.dashboardURL } : {}), ...(a.panelURL ? { panelURL: a.panelURL } : {}), ...(a.valueString ? { valueString: a.valueString } : {}) },
      };
    });
  },
};
