/** How a tool sends an alert to the generic endpoint: one curl line, with the key (or a placeholder) in it. */
export const curlExample = (eventsUrl: string, key: string) =>
  `curl -X POST ${eventsUrl} -H 'Authorization: Bearer ${key}' -H 'Content-Type: application/json' -d '{"title":"Disk full on db-1","priority":"high","source":"db-1"}'`;

/** A Prometheus Alertmanager receiver (alertmanager.yml) that sends to us with the key as bearer token. */
export const alertmanagerReceiver = (alertmanagerUrl: string, key: string) =>
  [
    'receivers:',
    '  - name: alertdesk',
    '    webhook_configs:',
    `      - url: ${alertmanagerUrl}`,
    '        http_config:',
    '          authorization:',
    `            credentials: '${key}'`,
  ].join('\n');

/**
 * The URL of a vendor format (`/api/ingest/{format}`), next to the generic events URL the server gives. With
 * `key`, the key as the last path segment, for tools that cannot set an Authorization header.
 */
export const formatUrl = (eventsUrl: string, format: string, key?: string) => `${eventsUrl.replace(/\/events$/, '')}/${format}${key ? `/${key}` : ''}`;
