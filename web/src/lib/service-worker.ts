/** Registers the push worker after page load; a failure is only logged, as the spec says. */
export async function registerServiceWorker(): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator)) return null;
  try {
    return await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  } catch (e) {
    console.error('Service worker initialization failed:', e);
    return null;
  }
}
