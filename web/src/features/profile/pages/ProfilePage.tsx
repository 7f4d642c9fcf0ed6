import { Tabs } from '@mantine/core';
import { IconBell, IconShieldLock, IconUser } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { NotificationsTab } from '../components/NotificationsTab.tsx';
import { ProfileTab } from '../components/ProfileTab.tsx';
import { SecurityTab } from '../components/SecurityTab.tsx';

const TABS = ['profile', 'security', 'notifications'] as const;

/** /app/profile: tabs Profile, Security, Notifications; the open tab is kept in the address (?tab=). */
export function ProfilePage() {
  const [params, setParams] = useSearchParams();
  const tab = (TABS as readonly string[]).includes(params.get('tab') ?? '') ? params.get('tab')! : 'profile';
  return (
    <>
      <PageHeader title="Profile & Settings" description="Your name, password and how Alertdesk reaches you" />
      <Tabs value={tab} onChange={(v) => setParams(v && v !== 'profile' ? { tab: v } : {}, { replace: true })} keepMounted={false}>
        <Tabs.List mb="lg" className="scroll-tabs">
          <Tabs.Tab value="profile" leftSection={<IconUser size={16} />} className="no-shrink">
            Profile
          </Tabs.Tab>
          <Tabs.Tab value="security" leftSection={<IconShieldLock size={16} />} className="no-shrink">
            Security
          </Tabs.Tab>
          <Tabs.Tab value="notifications" leftSection={<IconBell size={16} />} className="no-shrink">
            Notifications
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="profile">
          <ProfileTab />
        </Tabs.Panel>
        <Tabs.Panel value="security">
          <SecurityTab />
        </Tabs.Panel>
        <Tabs.Panel value="notifications">
          <NotificationsTab />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
