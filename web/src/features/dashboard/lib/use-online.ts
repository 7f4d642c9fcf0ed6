import { useEffect, useState } from 'react';

/**
 * Whether the browser says it is online, kept up to date. Mantine's useNetwork reads the connection's speed as well,
 * which the dashboard does not show: these few lines leave its bytes out of the first paint (issue 14's budget).
 */
export function useOnline() {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  return online;
}
