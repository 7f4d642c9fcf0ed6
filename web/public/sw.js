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
      requireInteraction: true,
      data: { alertId: data.alertId || null, url: data.url || '/app/dashboard', ackToken: data.ackToken || null },
      // Acknowledge works without opening the app: the page's single-use link is posted from here.
      actions: data.ackToken
        ? [
            { action: 'ack', title: 'Acknowledge' },
            { action: 'open', title: 'Open' },
          ]
        : [{ action: 'open', title: 'Open' }],
      icon: '/favicon.svg',
    }),
  );
});
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const { alertId, url, ackToken } = event.notification.data || {};
  if (event.action === 'ack' && ackToken) {
    event.waitUntil(
      fetch('/api/ack/' + encodeURIComponent(ackToken), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', credentials: 'same-origin' })
        .then((res) => res.json().then((body) => ({ ok: res.ok, body })))
        .then(({ ok, body }) =>
          self.registration.showNotification(ok ? 'Alert acknowledged' : 'Could not acknowledge', {
            body: ok ? body.message : (body && body.error && body.error.message) || 'Please open the alert and try again.',
            tag: alertId ? alertId + ':ack' : undefined,
            data: { alertId, url },
            icon: '/favicon.svg',
          }),
        )
        .catch(() => self.registration.showNotification('Could not acknowledge', { body: 'The server could not be reached.', data: { alertId, url } })),
    );
    return;
  }
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((clients) => {
      for (const client of clients) {
        // An alert opens in the app already open; anything else (an approval request) is a page to go to.
        if (!alertId && url && 'navigate' in client) return client.focus().then((c) => c.navigate(url));
        client.postMessage({ type: 'NOTIFICATION_CLICK', alertId });
        if ('focus' in client) return client.focus();
      }
      return self.clients.openWindow(url || '/app/dashboard');
    }),
  );
});
