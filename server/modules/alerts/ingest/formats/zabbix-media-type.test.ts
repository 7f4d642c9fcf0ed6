import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../../test/test-app.ts';
import { registerOwner } from '../../../../test/factories.ts';
import { createIntegration, ingest } from '../../../../test/alerts.ts';
import { zabbixProblem } from './fixtures.ts';

// Read without a YAML library (none is a dependency): the file's parameters are `- name:` / `value: '…'` pairs and
// its script a `|` block, which is all Zabbix reads from it here.
const yamlText = fs.readFileSync(path.resolve(import.meta.dirname, '../../../../../ops/zabbix/alertdesk-media-type.yaml'), 'utf8');
const mediaType = {
  parameters: [...yamlText.matchAll(/- name: (\w+)\n\s+value: '([^']*)'/g)].map((m) => ({ name: m[1], value: m[2] })),
  script: (() => {
    const lines = yamlText.split('\n');
    const start = lines.findIndex((l) => /^\s+script: \|$/.test(l));
    const indent = /^\s*/.exec(lines[start + 1])![0].length;
    const body: string[] = [];
    for (const line of lines.slice(start + 1)) {
      if (line.trim() && /^\s*/.exec(line)![0].length < indent) break;
      body.push(line.slice(indent));
    }
    return body.join('\n');
  })(),
};

/** Runs the media type's script as Zabbix would, with its macros expanded to `values`, and returns what it posted. */
function runScript(values: Record<string, string>) {
  const posts: Array<{ url: string; headers: string[]; body: string }> = [];
  class HttpRequest {
    headers: string[] = [];
    addHeader(h: string) {
      this.headers.push(h);
    }
    setProxy() {}
    post(url: string, body: string) {
      posts.push({ url, headers: this.headers, body });
      return '{}';
    }
    getStatus() {
      return 202;
    }
  }
  const params = Object.fromEntries(mediaType.parameters.map((p) => [p.name, p.name in values ? values[p.name] : p.value]));
  const result = new Function('value', 'HttpRequest', 'Zabbix', mediaType.script)(JSON.stringify(params), HttpRequest, { log() {} });
  return { result, posts };
}

describeEachDatabase('the Zabbix media type in ops/', (t) => {
  it('posts every macro the zabbix format reads, with the key as Bearer, and what it posts opens the alert', async () => {
    const owner = await registerOwner(t().app);
    const integration = await createIntegration(owner.agent, owner.tenantId);
    const expanded = { ...zabbixProblem, host_ip: '{HOST.IP}', alertdesk_url: 'https://alertdesk.test/api/ingest/zabbix', alertdesk_key: integration.key };
    const { result, posts } = runScript(expanded);
    expect(result).toBe('OK');
    expect(posts).toHaveLength(1);
    expect(posts[0].headers).toContain(`Authorization: Bearer ${integration.key}`);
    const body = JSON.parse(posts[0].body);
    expect(body).toMatchObject({ event_id: '4512', event_value: '1', event_nseverity: '4', host_name: 'web-01.acme.local', host_ip: '' });
    expect(body).not.toHaveProperty('alertdesk_key');
    const res = await ingest(t().app, '/api/ingest/zabbix', body, { authorization: `Bearer ${integration.key}` });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.data.alerts[0]).toMatchObject({ dedupKey: 'zabbix:4512', result: 'created' });
  });
});
