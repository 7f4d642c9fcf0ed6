import { Tabs } from '@mantine/core';
import { IconCalendarTime, IconSitemap, IconTool } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { NoPermission, NoTenant } from '../../../components/AccessState.tsx';
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

/** /app/escalation-policies: tabs Escalation Policies and On-Call Schedules (spec section 2), and Maintenance (issue 31); the tab is kept in ?tab=. */
export function EscalationPage() {
  const { tenant } = useCurrentTenant();
  const [params, setParams] = useSearchParams();
  const tab = TABS.some((t) => t.value === params.get('tab')) ? params.get('tab')! : 'policies';
  const header = <PageHeader title="Escalation Management" description="Who is paged, when, and who is on call" />;
  if (!tenant)
    return (
      <>
        {header}
        <NoTenant />
      </>
    );
  // Spec section 2: owners and admins; the server refuses writes to everyone else too.
  if (!tenant.abilities.manageEscalation)
    return (
      <>
        {header}
        <NoPermission />
      </>
    );
  return (
    <>
      {header}
      <Tabs key={tenant.id} value={tab} onChange={(v) => setParams(v && v !== 'policies' ? { tab: v } : {}, { replace: true })} keepMounted={false}>
        <Tabs.List mb="lg" className="scroll-tabs">
          {TABS.map((t) => (
            <Tabs.Tab key={t.value} value={t.value} leftSection={<t.icon size={16} />} className="no-shrink">
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="policies">
          <PoliciesTab tenantId={tenant.id} />
        </Tabs.Panel>
        <Tabs.Panel value="schedules">
          <SchedulesTab tenantId={tenant.id} />
        </Tabs.Panel>
        <Tabs.Panel value="maintenance">
          <MaintenanceTab tenantId={tenant.id} />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
