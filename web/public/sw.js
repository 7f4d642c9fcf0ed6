// Alertdesk service worker: shows pushed alerts and tells the open app which alert was clicked.
let appConfig = {};
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'CONFIG') appConfig = event.data.config || {};
});
self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (e) {
    data = { title: event.data ? event.data.text() : 'Alertdesk' };
  }
  const title = data.title || 'Alertdesk alert';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: data.body || '',
      tag: data.alertId || undefined,
      data: { alertId: data.alertId || null, url: data.url || '/app/dashboard' },
      icon: '/favicon.svg',
    }),
  );
});
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const { alertId, url } = event.notification.data || {};
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((clients) => {
      for (const client of clients) {
        client.postMessage({ type: 'NOTIFICATION_CLICK', alertId });
        if ('focus' in client) return client.focus();
      }
      return self.clients.openWindow(url || '/app/dashboard');
    }),
  );
});
