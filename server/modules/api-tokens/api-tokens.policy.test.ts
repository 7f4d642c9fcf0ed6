import { describe, expect, it } from 'vitest';
import { tokenLive, tokenMemberRole, tokenUse } from './api-tokens.policy.ts';

describe('where an API token works', () => {
  it.each([
    ['read', 'GET', '/api/tenants/:tenantId/alerts', 'ok'],
    ['read', 'HEAD', '/api/tenants/:tenantId/clients/:clientId', 'ok'],
    ['read', 'POST', '/api/tenants/:tenantId/alerts/:alertId/acknowledge', 'readOnly'],
    ['read', 'DELETE', '/api/tenants/:tenantId/clients/:clientId', 'readOnly'],
    ['write', 'POST', '/api/tenants/:tenantId/alerts/:alertId/acknowledge', 'ok'],
    ['write', 'PUT', '/api/tenants/:tenantId/escalationPolicies/:policyId', 'ok'],
    ['write', 'GET', '/api/tenants/:tenantId/members', 'notHere'],
    ['write', 'POST', '/api/tenants/:tenantId/members/:memberId/resend', 'notHere'],
    ['write', 'GET', '/api/tenants/:tenantId/details', 'notHere'],
    ['write', 'POST', '/api/tenants/:tenantId/apiTokens', 'notHere'],
    ['write', 'GET', '/api/tenants/:tenantId/destinations', 'notHere'],
    ['write', 'PUT', '/api/tenants/:tenantId/notification-preferences', 'notHere'],
    ['write', 'POST', '/api/tenants/:tenantId/myOnCall/calendarFeed', 'notHere'],
    ['read', 'GET', '/api/tenants/:tenantId/events', 'notHere'],
    ['write', 'POST', '/api/tenants/:tenantId/psaConnections', 'notHere'],
    ['write', 'POST', '/api/tenants/:tenantId/shiftSwaps', 'notHere'],
    ['read', 'GET', '/api/tenants/:tenantId/pagerOptions', 'notHere'],
    ['write', 'POST', '/api/tenants/:tenantId/onCallSchedules/:scheduleId/takePager', 'notHere'],
    ['write', 'GET', '/api/tenants/:tenantId/onCallSchedules/:scheduleId', 'ok'],
    ['write', 'GET', '/api/me', 'notHere'],
    ['write', 'DELETE', '/api/tenants/:tenantId', 'notHere'],
  ] as const)('%s %s %s → %s', (role, method, url, expected) => {
    expect(tokenUse(role, method, url)).toBe(expected);
  });

  it('acts as an admin, capped by its creator now, never as owner', () => {
    expect(tokenMemberRole('owner')).toBe('admin');
    expect(tokenMemberRole('admin')).toBe('admin');
    expect(tokenMemberRole('user')).toBe('user');
  });

  it('lives until revoked or expired', () => {
    const at = new Date('2026-06-01T00:00:00Z');
    expect(tokenLive({ revoked_at: null, expires_at: null }, at)).toBe(true);
    expect(tokenLive({ revoked_at: null, expires_at: '2026-06-02T00:00:00.000Z' }, at)).toBe(true);
    expect(tokenLive({ revoked_at: null, expires_at: '2026-05-31T23:59:59.000Z' }, at)).toBe(false);
    expect(tokenLive({ revoked_at: '2026-05-01T00:00:00.000Z', expires_at: null }, at)).toBe(false);
  });
});
