import type { Query, QueryClient } from '@tanstack/react-query';

/**
 * Every TanStack Query key of the web app, in one place. A longer key starts with the shorter one it belongs to, so
 * invalidating a prefix refreshes everything under it: `tenant(id)` is all of one tenant's data, `clients(id)` its
 * client lists, details and choices, `alerts(id)` its alert lists, figures and details.
 */
export const queryKeys = {
  /** The signed-in user (null when signed out). */
  me: ['me'] as const,
  config: ['config'] as const,
  invitation: (token: string) => ['invitation', token] as const,
  ackLink: (token: string) => ['ackLink', token] as const,
  reachability: (tenantId: string) => ['tenant', tenantId, 'reachability'] as const,
  /** Issue 27: whether the server holds this browser's push subscription; the person's notification rules. */
  pushSubscription: (endpoint: string) => ['pushSubscription', endpoint] as const,
  notificationRules: ['notificationRules'] as const,

  pricingPlans: ['pricingPlans'] as const,
  publicPlans: ['pricingPlans', 'public'] as const,
  allPlans: ['pricingPlans', 'all'] as const,
  pricingSettings: ['settings', 'pricing'] as const,

  system: ['system'] as const,
  systemTenants: ['system', 'tenants'] as const,
  systemTenantList: (params: object) => ['system', 'tenants', params] as const,
  systemUserList: (params: object) => ['system', 'users', params] as const,
  systemAnalytics: ['system', 'analytics'] as const,

  /** Every tenant's data; switching tenants drops it all. */
  tenants: ['tenant'] as const,
  tenant: (tenantId: string) => ['tenant', tenantId] as const,
  clients: (tenantId: string) => ['tenant', tenantId, 'clients'] as const,
  clientList: (tenantId: string, params: object) => ['tenant', tenantId, 'clients', 'list', params] as const,
  client: (tenantId: string, clientId: string) => ['tenant', tenantId, 'clients', 'detail', clientId] as const,
  clientChoices: (tenantId: string) => ['tenant', tenantId, 'clients', 'choices'] as const,
  alerts: (tenantId: string) => ['tenant', tenantId, 'alerts'] as const,
  alertStats: (tenantId: string) => ['tenant', tenantId, 'alerts', 'stats'] as const,
  activeAlerts: (tenantId: string, filter: object) => ['tenant', tenantId, 'alerts', 'active', filter] as const,
  alertHistory: (tenantId: string, params: object) => ['tenant', tenantId, 'alerts', 'history', params] as const,
  alert: (tenantId: string, alertId: string) => ['tenant', tenantId, 'alerts', 'detail', alertId] as const,
  /** One client's open alerts and recent history (its details): under `alerts(id)`, so alert changes refresh them. */
  clientAlerts: (tenantId: string, clientId: string) => ['tenant', tenantId, 'alerts', 'client', clientId] as const,
  clientOpenAlerts: (tenantId: string, clientId: string, params: object) => ['tenant', tenantId, 'alerts', 'client', clientId, 'open', params] as const,
  clientAlertHistory: (tenantId: string, clientId: string, params: object) => ['tenant', tenantId, 'alerts', 'client', clientId, 'history', params] as const,
  assignees: (tenantId: string) => ['tenant', tenantId, 'assignees'] as const,
  integrations: (tenantId: string) => ['tenant', tenantId, 'integrations'] as const,
  /** Escalation policies: the tab's list, and the choices of the integration and client forms. */
  escalationPolicies: (tenantId: string) => ['tenant', tenantId, 'escalation-policies'] as const,
  escalationPolicyChoices: (tenantId: string) => ['tenant', tenantId, 'escalation-policies', 'choices'] as const,
  /** On-call schedules: the list, who is on call, timelines and overrides (everything a schedule change moves). */
  schedules: (tenantId: string) => ['tenant', tenantId, 'oncall-schedules'] as const,
  scheduleList: (tenantId: string) => ['tenant', tenantId, 'oncall-schedules', 'list'] as const,
  onCallNow: (tenantId: string) => ['tenant', tenantId, 'oncall-schedules', 'on-call'] as const,
  scheduleTimeline: (tenantId: string, scheduleId: string) => ['tenant', tenantId, 'oncall-schedules', 'timeline', scheduleId] as const,
  scheduleOverrides: (tenantId: string, scheduleId: string) => ['tenant', tenantId, 'oncall-schedules', 'overrides', scheduleId] as const,
  onCallMembers: (tenantId: string) => ['tenant', tenantId, 'oncall-members'] as const,
  myOnCall: (tenantId: string) => ['tenant', tenantId, 'my-oncall'] as const,
  /** Approval workflows: requests (lists and details, what the live stream refreshes) and policies. */
  approvals: (tenantId: string) => ['tenant', tenantId, 'approvals'] as const,
  approvalRequests: (tenantId: string) => ['tenant', tenantId, 'approvals', 'requests'] as const,
  approvalRequestList: (tenantId: string, params: object) => ['tenant', tenantId, 'approvals', 'requests', 'list', params] as const,
  approvalRequest: (tenantId: string, requestId: string) => ['tenant', tenantId, 'approvals', 'requests', 'detail', requestId] as const,
  approvalPolicies: (tenantId: string) => ['tenant', tenantId, 'approvals', 'policies'] as const,
  tenantAdmin: (tenantId: string) => ['tenant', tenantId, 'tenant-admin'] as const,
  members: (tenantId: string) => ['tenant', tenantId, 'tenant-admin', 'members'] as const,
  tenantDetails: (tenantId: string) => ['tenant', tenantId, 'tenant-admin', 'details'] as const,
  notificationPreferences: (tenantId: string) => ['tenant', tenantId, 'notification-preferences'] as const,
};

/** An alert list or figure of the tenant, not one alert's details. */
export const isAlertListQuery = (q: Query) => q.queryKey[3] !== 'detail';

/** An approval request list (the tabs and the pending count), not one request's details. */
export const isApprovalListQuery = (q: Query) => q.queryKey[4] === 'list';

/** Notification preferences cached for a tenant other than this one. */
export const isOtherTenantsPreferences = (tenantId: string) => (q: Query) =>
  q.queryKey[0] === 'tenant' && q.queryKey[2] === 'notification-preferences' && q.queryKey[1] !== tenantId;

/** Forgets every tenant's data, so nothing of the previous tenant shows after a switch. */
export const removeTenantQueries = (qc: QueryClient) => qc.removeQueries({ queryKey: queryKeys.tenants });
