import { lazy, Suspense } from 'react';
import { Tabs, Text } from '@mantine/core';
import { IconBuildingSkyscraper, IconChartBar, IconCreditCard, IconReceipt, IconTools, IconUsers } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { StatePanel } from '../../../components/AccessState.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { PricingPlansTab } from './PricingPlansTab.tsx';
import { TenantsTab } from './TenantsTab.tsx';
import { UsersTab } from './UsersTab.tsx';

// recharts is large: it loads when the Analytics tab is opened, not with the page.
const AnalyticsTab = lazy(() => import('./AnalyticsTab.tsx'));

const TABS = [
  { value: 'tenants', label: 'Tenants', icon: IconBuildingSkyscraper },
  { value: 'users', label: 'Users', icon: IconUsers },
  { value: 'pricing', label: 'Pricing Plans', icon: IconReceipt },
  { value: 'billing', label: 'Billing', icon: IconCreditCard },
  { value: 'analytics', label: 'Analytics', icon: IconChartBar },
] as const;

/** The five tabs of System Administration; the open tab is kept in the address (?tab=) so a reload stays on it. */
export default function SystemAdminTabs() {
  const [params, setParams] = useSearchParams();
  const tab = TABS.some((t) => t.value === params.get('tab')) ? params.get('tab')! : 'tenants';
  return (
    <Tabs value={tab} onChange={(v) => setParams(v && v !== 'tenants' ? { tab: v } : {}, { replace: true })} keepMounted={false}>
      <Tabs.List mb="lg" className="scroll-tabs">
        {TABS.map((t) => (
          <Tabs.Tab key={t.value} value={t.value} leftSection={<t.icon size={16} />} className="no-shrink">
            {t.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      <Tabs.Panel value="tenants">
        <TenantsTab />
      </Tabs.Panel>
      <Tabs.Panel value="users">
        <UsersTab />
      </Tabs.Panel>
      <Tabs.Panel value="pricing">
        <PricingPlansTab />
      </Tabs.Panel>
      <Tabs.Panel value="billing">
        <StatePanel icon={<IconTools />} title="Billing">
          <Text c="dimmed">Billing management will be implemented in a future update.</Text>
        </StatePanel>
      </Tabs.Panel>
      <Tabs.Panel value="analytics">
        <Suspense fallback={<Loading />}>
          <AnalyticsTab />
        </Suspense>
      </Tabs.Panel>
    </Tabs>
  );
}
