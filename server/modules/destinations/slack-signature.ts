import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a request's timestamp may be from now (Slack's advice: five minutes, against replays). */
export const SLACK_TIMESTAMP_TOLERANCE_SEC = 300;

/**
 * Slack's request signing (v0): `X-Slack-Signature` is `v0=` + hex HMAC-SHA256, keyed by the app's signing secret, of
 * `v0:{X-Slack-Request-Timestamp}:{raw body}`; compared in constant time, the timestamp within five minutes. Pure.
 */
export function slackSignatureValid(secret: string | null, headers: { signature?: unknown; timestamp?: unknown }, rawBody: string, nowSec: number): boolean {
  if (!secret || typeof headers.signature !== 'string' || typeof headers.timestamp !== 'string') return false;
  if (!/^\d{1,12}$/.test(headers.timestamp) || Math.abs(nowSec - Number(headers.timestamp)) > SLACK_TIMESTAMP_TOLERANCE_SEC) return false;
  const expected = Buffer.from(`v0=${createHmac('sha256', secret).update(`v0:${headers.timestamp}:${rawBody}`).digest('hex')}`);
  const given = Buffer.from(headers.signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
