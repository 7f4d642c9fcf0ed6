import { lazy, Suspense, useState } from 'react';

const AlertDetailModal = lazy(async () => ({ default: (await import('./AlertDetailModal.tsx')).AlertDetailModal }));

/**
 * The alert detail dialog, whose code (timeline, notes, assignment) loads the first time an alert is opened rather
 * than with the list (issue 14's dashboard budget). Once loaded it stays mounted, so closing keeps its transition.
 */
export function LazyAlertDetailModal(props: { tenantId: string; alertId: string | null; onClose: () => void }) {
  const [wanted, setWanted] = useState(false);
  if (props.alertId && !wanted) setWanted(true);
  if (!wanted && !props.alertId) return null;
  return (
    <Suspense fallback={null}>
      <AlertDetailModal {...props} />
    </Suspense>
  );
}
