import { Tabs } from '@mantine/core';
import { IconCalendarTime, IconSitemap, IconTool } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { NoTenant } from '../../../components/AccessState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useCurrentTenant } from '../../../lib/session.tsx';
import { PoliciesTab } from '../components/PoliciesTab.tsx';
import { SchedulesTab } from '../components/SchedulesTab.tsx';
import { MaintenanceTab } from '../components/MaintenanceTab.tsx';

const TABS = [
  { value: 'policies', label: 'Escalation Policies', icon: IconSitemap },
  { value: 'schedules', label: 'On-Call Schedules', icon: IconCalendarTime },
  { value: 'maintenance', label: 'Maintenance', icon: IconTool },
] as const;

/**
 * /app/escalation-policies: tabs Escalation Policies and On-Call Schedules (spec section 2), and Maintenance (issue 31);
 * the tab is kept in ?tab=. Members who are not owners or admins read the schedules and windows (issue 27): no policies tab,
 * no create, edit or delete (the server refuses those writes too).
 */
export function EscalationPage() {
  const { tenant } = useCurrentTenant();
  const [params, setParams] = useSearchParams();
  // Owners and admins manage all three; every other member reads the schedules and maintenance windows (issue 27).
  const manager = !!tenant?.abilities.manageEscalation;
  const tabs = manager ? TABS : TABS.filter((t) => t.value !== 'policies');
  const first = tabs[0].value;
  const tab = tabs.some((t) => t.value === params.get('tab')) ? params.get('tab')! : first;
  const header = <PageHeader title="Escalation Management" description="Who is paged, when, and who is on call" />;
  if (!tenant)
    return (
      <>
        {header}
        <NoTenant />
      </>
    );
  return (
    <>
      {header}
      <Tabs key={tenant.id} value={tab} onChange={(v) => setParams(v && v !== first ? { tab: v } : {}, { replace: true })} keepMounted={false}>
        <Tabs.List mb="lg" className="scroll-tabs">
          {tabs.map((t) => (
            <Tabs.Tab key={t.value} value={t.value} leftSection={<t.icon size={16} />} className="no-shrink">
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {manager && (
          <Tabs.Panel value="policies">
            <PoliciesTab tenantId={tenant.id} />
          </Tabs.Panel>
        )}
        <Tabs.Panel value="schedules">
          <SchedulesTab tenantId={tenant.id} canManage={manager} />
        </Tabs.Panel>
        <Tabs.Panel value="maintenance">
          <MaintenanceTab tenantId={tenant.id} />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
