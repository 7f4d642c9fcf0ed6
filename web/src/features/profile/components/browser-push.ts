import { PUSH_TOKEN_REFRESH_MS, type PushSubscriptionBody } from '../../../../../contract/profile.ts';
import { savePushToken } from '../api/save-push-token.ts';

/** 'unsupported' when this browser cannot receive web push at all; otherwise its notification permission. */
export type BrowserPushState = 'unsupported' | NotificationPermission;

export function browserPushState(): BrowserPushState {
  if (typeof window === 'undefined' || !('Notification' in window) || !('serviceWorker' in navigator) || !('PushManager' in window)) return 'unsupported';
  return Notification.permission;
}

const SAVED_AT_KEY = 'pushTokenSavedAt';
// Spec section 9: the service worker gets 10 s to become active.
const WORKER_TIMEOUT_MS = 10_000;

function base64UrlToBytes(s: string): Uint8Array<ArrayBuffer> {
  const b64 = (s + '='.repeat((4 - (s.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

async function activeWorker(): Promise<ServiceWorkerRegistration> {
  const existing = await navigator.serviceWorker.getRegistration('/');
  if (!existing) await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  return Promise.race([
    navigator.serviceWorker.ready,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('The service worker did not start in time')), WORKER_TIMEOUT_MS)),
  ]);
}

/**
 * Subscribes this browser to push (with the server's VAPID key) and stores the subscription under the user.
 * Returns false when the server has no push key configured, so nothing can be sent to any browser yet.
 */
export async function subscribeThisBrowser(vapidPublicKey: string | null): Promise<boolean> {
  if (!vapidPublicKey) return false;
  const reg = await activeWorker();
  const sub = (await reg.pushManager.getSubscription()) ?? (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlToBytes(vapidPublicKey) }));
  await savePushToken(sub.toJSON() as PushSubscriptionBody['token']);
  try {
    localStorage.setItem(SAVED_AT_KEY, String(Date.now()));
  } catch {
    /* private mode: refreshed again next time */
  }
  return true;
}

/** True when this browser's subscription was never stored, or was stored longer ago than the refresh period. */
export function pushTokenStale(now = Date.now()): boolean {
  try {
    const at = Number(localStorage.getItem(SAVED_AT_KEY) ?? 0);
    return !at || now - at > PUSH_TOKEN_REFRESH_MS;
  } catch {
    return true;
  }
}

/**
 * The endpoint of this browser's push subscription, or null when it has none (no service worker registered, or no
 * subscription): never registers or subscribes.
 */
export async function thisBrowserEndpoint(): Promise<string | null> {
  if (browserPushState() === 'unsupported') return null;
  const reg = await navigator.serviceWorker.getRegistration('/');
  const sub = reg ? await reg.pushManager.getSubscription() : null;
  return sub?.endpoint ?? null;
}
