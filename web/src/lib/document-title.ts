import { useEffect } from 'react';

/** Gives the page its own document title ("Clients · Alertdesk"), so tabs, history and screen readers can tell pages apart. */
export function useDocumentTitle(title: string | null) {
  useEffect(() => {
    document.title = title ? `${title} · Alertdesk` : 'Alertdesk';
  }, [title]);
}
