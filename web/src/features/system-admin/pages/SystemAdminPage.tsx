import { lazy, Suspense } from 'react';
import '@mantine/charts/styles.css';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { Loading } from '../../../components/Loading.tsx';

// Super admins only: the tabs (and the zod schemas and charts they use) stay out of everyone else's bundle.
const SystemAdminTabs = lazy(() => import('../components/SystemAdminTabs.tsx'));

/** /app/system-admin (the route guard lets super admins only in). */
export function SystemAdminPage() {
  return (
    <>
      <PageHeader title="System Administration" description="Tenants, users and pricing across the whole platform" />
      <Suspense fallback={<Loading />}>
        <SystemAdminTabs />
      </Suspense>
    </>
  );
}
