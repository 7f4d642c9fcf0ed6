import { createBrowserRouter, Navigate } from 'react-router';
import { CrashText } from './CrashFallback.tsx';
import { RequireAuth, RequireSuperAdmin } from './guards.tsx';
import { AppLayout } from './layout/AppLayout.tsx';
import { HomeRoute } from './HomeRoute.tsx';
import { LoginPage } from '../features/auth/pages/LoginPage.tsx';
import { ResetPasswordPage } from '../features/auth/pages/ResetPasswordPage.tsx';
import { DashboardPage } from '../features/dashboard/pages/DashboardPage.tsx';
import { AlertHistoryPage } from '../features/dashboard/pages/AlertHistoryPage.tsx';
import { ClientsPage } from '../features/clients/pages/ClientsPage.tsx';
import { ProfilePage } from '../features/profile/pages/ProfilePage.tsx';
import { TenantAdminPage } from '../features/tenant-admin/pages/TenantAdminPage.tsx';
import { IntegrationsPanel } from '../features/integrations/components/IntegrationsPanel.tsx';
import { SystemAdminPage } from '../features/system-admin/pages/SystemAdminPage.tsx';
import { EscalationPage } from '../features/escalation/pages/EscalationPage.tsx';
import { ApprovalWorkflowsPage } from '../features/approvals/pages/ApprovalWorkflowsPage.tsx';
import { NotFoundPage } from './NotFoundPage.tsx';
import { InvitationPage } from '../features/invitations/pages/InvitationPage.tsx';
import { AckPage } from '../features/acknowledge/pages/AckPage.tsx';

/** Every route of spec section 2. A rendering error anywhere shows the crash fallback. */
export const router = createBrowserRouter([
  {
    errorElement: <CrashText />,
    children: [
      { path: '/', element: <HomeRoute /> },
      { path: '/login', element: <LoginPage /> },
      { path: '/reset-password', element: <ResetPasswordPage /> },
      { path: '/invitations/:token', element: <InvitationPage /> },
      { path: '/ack/:token', element: <AckPage /> },
      { path: '/clients', element: <Navigate to="/app/clients" replace /> },
      {
        path: '/app',
        element: <RequireAuth />,
        children: [
          {
            element: <AppLayout />,
            children: [
              { index: true, element: <Navigate to="/app/dashboard" replace /> },
              { path: 'dashboard', element: <DashboardPage /> },
              { path: 'alerts/history', element: <AlertHistoryPage /> },
              { path: 'clients', element: <ClientsPage /> },
              { path: 'profile', element: <ProfilePage /> },
              { path: 'tenant-admin', element: <TenantAdminPage renderIntegrations={(tenantId) => <IntegrationsPanel tenantId={tenantId} />} /> },
              { path: 'escalation-policies', element: <EscalationPage /> },
              { path: 'approval-workflows', element: <ApprovalWorkflowsPage /> },
              { element: <RequireSuperAdmin />, children: [{ path: 'system-admin', element: <SystemAdminPage /> }] },
              { path: '*', element: <Navigate to="/app/dashboard" replace /> },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
