import { AppShell, Avatar, Box, Burger, Button, Group, NavLink, ScrollArea, Select, Stack, Text, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconChartBar,
  IconBell,
  IconBuildingSkyscraper,
  IconChecklist,
  IconGauge,
  IconLogout,
  IconShieldLock,
  IconSitemap,
  IconUser,
  IconUsers,
} from '@tabler/icons-react';
import { Link as RouterLink, Outlet, useLocation, useNavigate } from 'react-router';
import { ThemeToggle } from '../../components/ThemeToggle.tsx';
import { useCurrentTenant, useSignedInMe, useSignOut } from '../../lib/session.tsx';
import { Logo } from '../../components/Logo.tsx';
import { PendingInvitationsBanner } from '../../features/invitations/components/PendingInvitationsBanner.tsx';

interface Item {
  label: string;
  to: string;
  icon: typeof IconGauge;
  /** Which path marks the item active (several items go to the dashboard, only Dashboard lights up). */
  match?: string;
}

/**
 * Sidebar of spec section 2: everyone's items, the owners' and admins', the super admins'. Departures (issue 15):
 * Alerts opens the history and search of all alerts rather than the dashboard again; Reports (issue 31) is for owners
 * and admins; Settings, which only opened the dashboard, is left out until it exists; Approval Workflows is for every member (the spec: owners and
 * admins only), who all create and approve requests there.
 */
function useNavItems(): Item[] {
  const me = useSignedInMe();
  const { tenant } = useCurrentTenant();
  const manager = !!tenant && (tenant.role === 'owner' || tenant.role === 'admin');
  // The spec's order: Dashboard, Alerts, Clients, Reports, Profile; then the owners' and admins' items.
  const items: Item[] = [
    { label: 'Dashboard', to: '/app/dashboard', icon: IconGauge, match: '/app/dashboard' },
    { label: 'Alerts', to: '/app/alerts/history', icon: IconBell, match: '/app/alerts' },
    { label: 'Clients', to: '/app/clients', icon: IconUsers, match: '/app/clients' },
    ...(manager ? [{ label: 'Reports', to: '/app/reports', icon: IconChartBar, match: '/app/reports' }] : []),
    { label: 'Profile', to: '/app/profile', icon: IconUser, match: '/app/profile' },
  ];
  if (manager) items.push({ label: 'Escalation Policies', to: '/app/escalation-policies', icon: IconSitemap, match: '/app/escalation-policies' });
  // Every other member reads who is on call (issue 27): the same page, its schedules tab first.
  else if (tenant) items.push({ label: 'On-Call Schedules', to: '/app/escalation-policies?tab=schedules', icon: IconSitemap, match: '/app/escalation-policies' });
  // Every member makes and decides approval requests (only its policy and all-requests tabs are for owners and admins).
  if (tenant) items.push({ label: 'Approval Workflows', to: '/app/approval-workflows', icon: IconChecklist, match: '/app/approval-workflows' });
  if (manager) {
    items.push({ label: 'Tenant Admin', to: '/app/tenant-admin', icon: IconBuildingSkyscraper, match: '/app/tenant-admin' });
  }
  if (me.abilities.systemAdmin) items.push({ label: 'System Admin', to: '/app/system-admin', icon: IconShieldLock, match: '/app/system-admin' });
  return items;
}

export function AppLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const me = useSignedInMe();
  const { tenant, tenants, setTenantId } = useCurrentTenant();
  const items = useNavItems();
  const location = useLocation();
  const navigate = useNavigate();
  const signOut = useSignOut(() => navigate('/login', { replace: true }));

  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={opened ? 'Close menu' : 'Open menu'} />
            <Logo compact />
          </Group>
          <Group gap="sm" wrap="nowrap">
            {/* To the left, so it never covers the list of organizations that opens below. */}
            <Tooltip label={tenants.length <= 1 ? 'You belong to one organization' : 'Switch organization'} position="left">
              <Select
                aria-label="Current tenant"
                data-testid="tenant-select"
                w={{ base: 170, sm: 220 }}
                data={tenants.map((t) => ({ value: t.id, label: t.name }))}
                value={tenant?.id ?? null}
                onChange={(v) => v && setTenantId(v)}
                disabled={tenants.length <= 1}
                allowDeselect={false}
                placeholder="No tenant"
                comboboxProps={{ withinPortal: true }}
              />
            </Tooltip>
            <ThemeToggle />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm" aria-label="Main navigation">
        <AppShell.Section grow component={ScrollArea}>
          <Stack gap={2}>
            {items.map((item) => {
              const active = item.match ? location.pathname.startsWith(item.match) : false;
              return (
                <NavLink
                  key={item.label}
                  component={RouterLink}
                  to={item.to}
                  label={item.label}
                  leftSection={<item.icon size={18} stroke={1.6} />}
                  active={active}
                  aria-current={active ? 'page' : undefined}
                  onClick={close}
                  style={{ borderRadius: 8 }}
                />
              );
            })}
          </Stack>
        </AppShell.Section>
        <AppShell.Section pt="sm" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
          <Group gap="sm" wrap="nowrap" mb="sm" data-testid="user-footer">
            <Avatar color="orange" radius="xl">
              {(me.user.displayName || me.user.email).charAt(0).toUpperCase()}
            </Avatar>
            <Box className="min-w-0">
              <Text size="sm" fw={600} truncate>
                {me.user.displayName}
              </Text>
              <Text size="xs" c="dimmed" truncate>
                {me.user.email}
              </Text>
            </Box>
          </Group>
          <Button variant="light" color="gray" fullWidth leftSection={<IconLogout size={16} />} onClick={signOut}>
            Sign Out
          </Button>
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main>
        <Box maw={1400} mx="auto">
          <PendingInvitationsBanner />
          <Outlet />
        </Box>
      </AppShell.Main>
    </AppShell>
  );
}
