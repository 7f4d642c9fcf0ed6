import nodemailer from 'nodemailer';
import { expect, it } from 'vitest';
import { INGEST_FORMATS } from '../../contract/ingest-formats.ts';
import { describeEachDatabase, inboundMailOn } from '../test/test-app.ts';
import { registerOwner } from '../test/factories.ts';
import { createIntegration, ingest } from '../test/alerts.ts';
import * as fx from '../modules/alerts/ingest/formats/fixtures.ts';

/** The value of one series of alertdesk_ingest_events_total, 0 when absent. */
const counted = (text: string, format: string, outcome: string, reason = '') => {
  const series = `alertdesk_ingest_events_total{format="${format}",outcome="${outcome}",reason="${reason}"} `;
  const line = text.split('\n').find((l) => l.startsWith(series));
  return line === undefined ? 0 : Number(line.slice(series.length));
};

/** Each vendor format's fixture (aws-sns's needs a signed message: its refusal is counted below instead). */
const TRIGGERS: Record<string, unknown> = {
  grafana: fx.grafanaFiring,
  zabbix: fx.zabbixProblem,
  'uptime-kuma': fx.uptimeKumaDown,
  ninjaone: fx.ninjaTriggered,
  'datto-rmm': fx.dattoAlert,
  'azure-monitor': fx.azureFired,
  datadog: fx.datadogTriggered,
};

// Issue 28: every way an alert comes in is counted under its own `format` label, never 'generic' or not at all.
describeEachDatabase(
  'ingestion metrics by format',
  (t) => {
    it('counts each vendor format, email and heartbeat monitors under their own format label, accepted and refused', async () => {
      const { app } = t();
      const owner = await registerOwner(app);
      const integration = await createIntegration(owner.agent, owner.tenantId, { name: 'Everything' });
      const auth = { authorization: `Bearer ${integration.key}` };
      for (const [format, body] of Object.entries(TRIGGERS)) {
        expect((await ingest(app, `/api/ingest/${format}`, body, auth)).statusCode).toBe(202);
        expect((await ingest(app, `/api/ingest/${format}`, body, auth)).statusCode).toBe(202);
      }
      for (const format of INGEST_FORMATS) {
        expect((await ingest(app, `/api/ingest/${format}/not-a-key`, {})).statusCode).toBe(401);
        expect((await ingest(app, `/api/ingest/${format}`, {}, { authorization: 'Bearer not-a-key' })).statusCode).toBe(401);
      }
      expect((await ingest(app, '/api/ingest/zabbix', { ...fx.zabbixProblem, event_value: 'PROBLEM' }, auth)).statusCode).toBe(400);

      // A mail to the integration's address, through the real SMTP listener.
      const address = (await owner.agent.get(`/api/tenants/${owner.tenantId}/integrations`)).data.items.find((i: { id: string }) => i.id === integration.id).emailAddress as string;
      const transport = nodemailer.createTransport({ host: '127.0.0.1', port: app.inboundMail.port()!, secure: false, ignoreTLS: true });
      await transport.sendMail({ from: 'veeam@client.example', to: address, subject: 'Backup job Nightly failed', text: 'Failed.' });
      // Refused by the SMTP listener itself: an address nobody has (550), then a mail past the size limit (552).
      await expect(transport.sendMail({ from: 'veeam@client.example', to: `nobody-here@${address.split('@')[1]}`, subject: 'Lost', text: 'x' })).rejects.toMatchObject({ responseCode: 550 });
      await expect(transport.sendMail({ from: 'veeam@client.example', to: address, subject: 'Huge', text: 'x'.repeat(11 * 1024 * 1024) })).rejects.toMatchObject({ responseCode: 552 });
      transport.close();

      // A heartbeat monitor's failure report opens its alert, its next ping resolves it: both go through ingestion.
      const monitor = await owner.agent.post(`/api/tenants/${owner.tenantId}/heartbeats`, { name: 'Nightly backup', intervalMinutes: 60, graceMinutes: 10, priority: 'high' });
      expect(monitor.statusCode).toBe(201);
      const pingPath = new URL(monitor.data.pingUrl).pathname;
      expect((await app.inject({ method: 'GET', url: `${pingPath}/fail` })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: pingPath })).statusCode).toBe(200);

      const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
      for (const format of Object.keys(TRIGGERS)) {
        // A Grafana group holds two alerts; every other fixture one.
        const alerts = format === 'grafana' ? 2 : 1;
        expect({ format, accepted: counted(text, format, 'accepted'), deduplicated: counted(text, format, 'deduplicated') }).toEqual({ format, accepted: alerts, deduplicated: alerts });
      }
      for (const format of INGEST_FORMATS) expect({ format, refused: counted(text, format, 'refused', 'invalid_key') }).toEqual({ format, refused: 2 });
      expect(counted(text, 'zabbix', 'refused', 'invalid')).toBe(1);
      expect(counted(text, 'email', 'accepted')).toBe(1);
      expect(counted(text, 'email', 'refused', 'unknown_recipient')).toBe(1);
      expect(counted(text, 'email', 'refused', 'too_large')).toBe(1);
      // The trigger and the resolve.
      expect(counted(text, 'heartbeat', 'accepted')).toBe(2);
      // Nothing of the above is counted as the generic format.
      expect(text).not.toMatch(/alertdesk_ingest_events_total\{format="generic"/);
    });
  },
  { inboundMail: inboundMailOn() },
);
