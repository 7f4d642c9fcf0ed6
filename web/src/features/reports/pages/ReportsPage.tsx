import { PageHeader } from '../../../components/PageHeader.tsx';

/** /app/reports (issue 31): placeholder, filled in by that work. */
export function ReportsPage() {
  return <PageHeader title="Reports" />;
}
