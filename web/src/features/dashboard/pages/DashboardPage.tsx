import { Button } from '@mantine/core';
import { Link } from 'react-router';
import { ComingSoon } from '../../../components/ComingSoon.tsx';
import { NoTenant } from '../../../components/AccessState.tsx';
import { useCurrentTenant } from '../../../app/session.tsx';

export function DashboardPage() {
  const { tenant } = useCurrentTenant();
  if (!tenant)
    return (
      <NoTenant>
        <Button component={Link} to="/login?google=register">
          Create your organization
        </Button>
      </NoTenant>
    );
  return <ComingSoon title="Dashboard" />;
}
