import { createBrowserRouter, Navigate } from 'react-router';
import { CrashText } from './CrashFallback.tsx';
import { RedirectKeepingQuery } from './RedirectKeepingQuery.tsx';
import { Loading } from '../components/Loading.tsx';

/**
 * Every route of spec section 2. A rendering error anywhere shows the crash fallback. Pages are lazy: sign-in loads
 * none of the signed-in app, and each signed-in page loads its own code when it is first visited (issue 14;
 * e2e/bundle-budget.test.ts holds the sizes). The marketing page is no route of this app: it is home.html.
 */
export const router = createBrowserRouter([
  {
    errorElement: <CrashText />,
    // Shown while the first page's code arrives.
    HydrateFallback: () => <Loading fullScreen />,
    children: [
      // The marketing page is an entry of its own (home.html); this route applies the host rule and loads it.
      { path: '/', lazy: async () => ({ Component: (await import('./HomeRoute.tsx')).HomeRoute }) },
      { path: '/login', lazy: async () => ({ Component: (await import('../features/auth/pages/LoginPage.tsx')).LoginPage }) },
      { path: '/reset-password', lazy: async () => ({ Component: (await import('../features/auth/pages/ResetPasswordPage.tsx')).ResetPasswordPage }) },
      { path: '/sign-in-link', lazy: async () => ({ Component: (await import('../features/auth/pages/SignInLinkPage.tsx')).SignInLinkPage }) },
      { path: '/invitations/:token', lazy: async () => ({ Component: (await import('../features/invitations/pages/InvitationPage.tsx')).InvitationPage }) },
      { path: '/ack/:token', lazy: async () => ({ Component: (await import('../features/acknowledge/pages/AckPage.tsx')).AckPage }) },
      { path: '/digest/off/:token', lazy: async () => ({ Component: (await import('../features/digest/pages/DigestOffPage.tsx')).DigestOffPage }) },
      { path: '/privacy', lazy: async () => ({ Component: (await import('../features/legal/pages/PrivacyPage.tsx')).PrivacyPage }) },
      { path: '/terms', lazy: async () => ({ Component: (await import('../features/legal/pages/TermsPage.tsx')).TermsPage }) },
      // The query goes along: the dashboard links a client's name to /clients?client=… (its details).
      { path: '/clients', element: <RedirectKeepingQuery to="/app/clients" /> },
      {
        path: '/app',
        lazy: async () => ({ Component: (await import('./guards.tsx')).RequireAuth }),
        children: [
          {
            lazy: async () => ({ Component: (await import('./layout/AppLayout.tsx')).AppLayout }),
            children: [
              { index: true, element: <Navigate to="/app/dashboard" replace /> },
              { path: 'dashboard', lazy: async () => ({ Component: (await import('../features/dashboard/pages/DashboardPage.tsx')).DashboardPage }) },
              { path: 'alerts/history', lazy: async () => ({ Component: (await import('../features/dashboard/pages/AlertHistoryPage.tsx')).AlertHistoryPage }) },
              { path: 'clients', lazy: async () => ({ Component: (await import('../features/clients/pages/ClientsPage.tsx')).ClientsPage }) },
              { path: 'profile', lazy: async () => ({ Component: (await import('../features/profile/pages/ProfilePage.tsx')).ProfilePage }) },
              { path: 'tenant-admin', lazy: async () => ({ Component: (await import('./TenantAdminRoute.tsx')).TenantAdminRoute }) },
              { path: 'escalation-policies', lazy: async () => ({ Component: (await import('../features/escalation/pages/EscalationPage.tsx')).EscalationPage }) },
              { path: 'reports', lazy: async () => ({ Component: (await import('../features/reports/pages/ReportsPage.tsx')).ReportsPage }) },
              { path: 'approval-workflows', lazy: async () => ({ Component: (await import('../features/approvals/pages/ApprovalWorkflowsPage.tsx')).ApprovalWorkflowsPage }) },
              // Short form; the query (?request=…, ?tab=…) goes along.
              { path: 'approvals', element: <RedirectKeepingQuery to="/app/approval-workflows" /> },
              { path: 'chat/:token', lazy: async () => ({ Component: (await import('../features/destinations/pages/ChatLinkPage.tsx')).ChatLinkPage }) },
              {
                lazy: async () => ({ Component: (await import('./guards.tsx')).RequireSuperAdmin }),
                children: [{ path: 'system-admin', lazy: async () => ({ Component: (await import('../features/system-admin/pages/SystemAdminPage.tsx')).SystemAdminPage }) }],
              },
              { path: '*', element: <Navigate to="/app/dashboard" replace /> },
            ],
          },
        ],
      },
      { path: '*', lazy: async () => ({ Component: (await import('./NotFoundPage.tsx')).NotFoundPage }) },
    ],
  },
]);
