/**
 * Vendor payloads for the format tests, each shaped after the vendor's own documentation (source in the comment);
 * the `client` markers (a label, tag, organization, site, account or subscription) are added where an MSP puts them.
 */

/** Grafana's webhook notifier documentation, "Example" payload (two alerts, one group). */
export const grafanaFiring = {
  receiver: 'My Super Webhook',
  status: 'firing',
  orgId: 1,
  alerts: [
    {
      status: 'firing',
      labels: { alertname: 'High memory usage', team: 'blue', zone: 'us-1', severity: 'critical', client: 'Acme Corp' },
      annotations: { description: 'The system has high memory usage', runbook_url: 'https://myrunbook.com/runbook/1234', summary: 'This alert was triggered for zone us-1' },
      startsAt: '2021-10-12T09:51:03.157076+02:00',
      endsAt: '0001-01-01T00:00:00Z',
      generatorURL: 'https://play.grafana.org/alerting/1afz29v7z/edit',
      fingerprint: 'c6eadffa33fcdf37',
      silenceURL: 'https://play.grafana.org/alerting/silence/new?alertmanager=grafana&matchers=alertname%3DT2%2Cteam%3Dblue%2Czone%3Dus-1',
      dashboardURL: '',
      panelURL: '',
      values: { B: 44.23943737541908, C: 1 },
      valueString: "[ var='B' labels={__name__=go_memstats_alloc_bytes, instance=http://localhost:3000, job=grafana} value=44.23943737541908 ], [ var='C' labels={} value=1 ]",
    },
    {
      status: 'firing',
      labels: { alertname: 'High CPU usage', team: 'blue', zone: 'eu-1', severity: 'warning', client: 'Acme Corp' },
      annotations: { description: 'The system has high CPU usage', runbook_url: 'https://myrunbook.com/runbook/1234', summary: 'This alert was triggered for zone eu-1' },
      startsAt: '2021-10-12T09:56:03.157076+02:00',
      endsAt: '0001-01-01T00:00:00Z',
      generatorURL: 'https://play.grafana.org/alerting/d1rdpdv7k/edit',
      fingerprint: 'bc97ff14869b13e3',
      silenceURL: 'https://play.grafana.org/alerting/silence/new?alertmanager=grafana&matchers=alertname%3DT1%2Cteam%3Dblue%2Czone%3Deu-1',
      dashboardURL: '',
      panelURL: '',
      values: { B: 44.23943737541908, C: 1 },
      valueString: "[ var='B' labels={__name__=go_memstats_alloc_bytes, instance=http://localhost:3000, job=grafana} value=44.23943737541908 ], [ var='C' labels={} value=1 ]",
    },
  ],
  groupLabels: {},
  commonLabels: { team: 'blue' },
  commonAnnotations: {},
  externalURL: 'https://play.grafana.org/',
  version: '1',
  groupKey: '{}:{}',
  truncatedAlerts: 0,
  title: '[FIRING:2]  (blue)',
  state: 'alerting',
  message: '**Firing**\n\nLabels:\n - alertname = T2\n - team = blue\n - zone = us-1\n',
};

/** The first alert of the same group resolved. */
export const grafanaResolved = { ...grafanaFiring, status: 'resolved', alerts: [{ ...grafanaFiring.alerts[0], status: 'resolved', endsAt: '2021-10-12T10:01:03.157076+02:00' }] };

/**
 * What ops/zabbix/alertdesk-media-type.yaml posts: the macros of Zabbix's "Supported macros" appendix as its
 * webhook parameters (event_tags is {EVENT.TAGSJSON}).
 */
export const zabbixProblem = {
  event_id: '4512',
  event_value: '1',
  event_nseverity: '4',
  event_severity: 'High',
  event_name: 'High CPU utilization (over 90% for 5m)',
  trigger_name: 'High CPU utilization (over 90% for 5m)',
  trigger_description: 'CPU utilization is too high. The system might be slow to respond.',
  event_opdata: 'Current utilization: 95.2 %',
  host_name: 'web-01.acme.local',
  host_ip: '10.0.0.5',
  host_group: 'Linux servers',
  event_tags: '[{"tag":"client","value":"Acme Corp"},{"tag":"scope","value":"performance"}]',
  event_update_status: '0',
  trigger_url: '',
  zabbix_url: '{$ZABBIX.URL}',
};
export const zabbixRecovery = { ...zabbixProblem, event_value: '0' };

/** Uptime Kuma's webhook provider (server/notification-providers/webhook.js): `{ heartbeat, monitor, msg }`. */
export const uptimeKumaDown = {
  heartbeat: { monitorID: 29, status: 0, time: '2024-09-24 23:51:35.527', msg: 'getaddrinfo ENOTFOUND acme.example', important: true, duration: 0, timezone: 'Europe/Berlin', timezoneOffset: '+02:00', localDateTime: '2024-09-25 01:51:35' },
  monitor: { id: 29, name: 'Acme website', url: 'https://acme.example', hostname: null, port: null, type: 'http', interval: 60, tags: [{ tag_id: 3, monitor_id: 29, name: 'client', color: '#059669', value: 'Acme Corp' }] },
  msg: '[Acme website] [🔴 Down] getaddrinfo ENOTFOUND acme.example',
};
export const uptimeKumaUp = { ...uptimeKumaDown, heartbeat: { ...uptimeKumaDown.heartbeat, status: 1, msg: '200 - OK' }, msg: '[Acme website] [✅ Up] 200 - OK' };

/** NinjaOne API 2.0 activity (the webhook body), a CONDITION with its series; organizationId as NinjaOne sends ids. */
export const ninjaTriggered = {
  id: 123456,
  activityTime: 1692717230.123,
  deviceId: 42,
  seriesUid: '4c1ed2f0-8d3a-4b4a-9a53-0d8e2f0b7d11',
  severity: 'MAJOR',
  priority: 'HIGH',
  activityType: 'CONDITION',
  statusCode: 'TRIGGERED',
  status: 'Triggered',
  activityResult: 'SUCCESS',
  sourceConfigUid: '9b2c5e0a-6f1d-4a3b-8c7e-2d4f6a8b0c1e',
  sourceName: 'Disk Free Space < 10%',
  subject: 'Condition triggered',
  message: 'Disk C: has 8% free space left',
  type: 'Condition',
  organizationId: 7,
  device: { id: 42, systemName: 'ACME-FS01', organizationId: 7 },
  data: { message: { code: 'condition_triggered', params: { drive: 'C:' } } },
};
export const ninjaReset = { ...ninjaTriggered, id: 123470, statusCode: 'RESET', status: 'Reset', activityTime: 1692718000.5 };

/** Datto RMM monitor webhook with the README's template (Datto's variables for the alert, site and device). */
export const dattoAlert = {
  alertUid: 'a1f2c3d4-5b6a-4c7d-8e9f-0a1b2c3d4e5f',
  alertMessage: 'Disk usage on C: is 95% (threshold 90%)',
  priority: 'Critical',
  hostname: 'ACME-DC01',
  siteName: 'Acme Corp HQ',
  siteUid: 'e2b1a6c4-3d5f-4a7b-9c8d-1e2f3a4b5c6d',
  alertType: 'Disk Usage',
  deviceUid: '0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b',
  url: 'https://merlot.centrastage.net/csm/device/0f1e2d3c',
};
export const dattoResolved = { alert_uid: dattoAlert.alertUid, resolved: 'true', hostname: 'ACME-DC01', site_name: 'Acme Corp HQ' };

/** Microsoft Learn, "Common alert schema", the sample metric alert (subscription id filled in). */
export const azureFired = {
  schemaId: 'azureMonitorCommonAlertSchema',
  data: {
    essentials: {
      alertId: '/subscriptions/11111111-2222-3333-4444-555555555555/providers/Microsoft.AlertsManagement/alerts/b9569717-bc32-442f-add5-83a997729330',
      alertRule: 'WCUS-R2-Gen2',
      severity: 'Sev3',
      signalType: 'Metric',
      monitorCondition: 'Fired',
      monitoringService: 'Platform',
      alertTargetIDs: ['/subscriptions/11111111-2222-3333-4444-555555555555/resourcegroups/pipelinealertrg/providers/microsoft.compute/virtualmachines/wcus-r2-gen2'],
      configurationItems: ['wcus-r2-gen2'],
      originAlertId: '3f2d4487-b0fc-4125-8bd5-7ad17384221e_PipeLineAlertRG_microsoft.insights_metricAlerts_WCUS-R2-Gen2_-117781227',
      firedDateTime: '2019-03-22T13:58:24.3713213Z',
      description: '',
      essentialsVersion: '1.0',
      alertContextVersion: '1.0',
    },
    alertContext: { properties: null, conditionType: 'SingleResourceMultipleMetricCriteria', condition: { windowSize: 'PT5M', allOf: [{ metricName: 'Percentage CPU', operator: 'GreaterThan', threshold: '15', timeAggregation: 'Average', metricValue: 18.9 }] } },
    customProperties: { Key1: 'Value1' },
  },
};
export const azureResolved = { ...azureFired, data: { ...azureFired.data, essentials: { ...azureFired.data.essentials, monitorCondition: 'Resolved', resolvedDateTime: '2019-03-22T14:03:16.2246313Z' } } };

/** Datadog's webhook integration with the README's payload template (its $-variables expanded). */
export const datadogTriggered = {
  id: '7391823647294103',
  alert_cycle_key: '8283626383920172',
  alert_transition: 'Triggered',
  alert_priority: 'P2',
  alert_type: 'error',
  alert_id: '98765',
  title: '[Triggered on {host:web-1}] CPU load is high',
  body: '%%%\nCPU load above 4 for 5 minutes on web-1\n%%%',
  hostname: 'web-1',
  tags: 'env:prod,client:Acme Corp,role:web',
  org_name: 'Acme MSP',
  link: 'https://app.datadoghq.com/event/event?id=7391823647294103',
};
export const datadogRecovered = { ...datadogTriggered, alert_transition: 'Recovered', alert_type: 'success', title: '[Recovered on {host:web-1}] CPU load is high' };

/** A CloudWatch alarm's SNS Message (CloudWatch User Guide, "Using Amazon CloudWatch alarms" → SNS notification). */
export const cloudWatchAlarm = {
  AlarmName: 'acme-web-1-high-cpu',
  AlarmDescription: 'CPU above 80% for 5 minutes',
  AWSAccountId: '123456789012',
  AlarmConfigurationUpdatedTimestamp: '2024-01-10T09:00:00.000+0000',
  NewStateValue: 'ALARM',
  NewStateReason: 'Threshold Crossed: 1 out of the last 1 datapoints [92.5 (10/01/24 10:00:00)] was greater than the threshold (80.0).',
  StateChangeTime: '2024-01-10T10:05:00.000+0000',
  Region: 'US East (N. Virginia)',
  AlarmArn: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:acme-web-1-high-cpu',
  OldStateValue: 'OK',
  OKActions: ['arn:aws:sns:us-east-1:123456789012:alertdesk'],
  AlarmActions: ['arn:aws:sns:us-east-1:123456789012:alertdesk'],
  InsufficientDataActions: [],
  Trigger: {
    MetricName: 'CPUUtilization',
    Namespace: 'AWS/EC2',
    StatisticType: 'Statistic',
    Statistic: 'AVERAGE',
    Unit: null,
    Dimensions: [{ value: 'i-0abc123def4567890', name: 'InstanceId' }],
    Period: 300,
    EvaluationPeriods: 1,
    ComparisonOperator: 'GreaterThanThreshold',
    Threshold: 80.0,
    TreatMissingData: 'missing',
  },
};
