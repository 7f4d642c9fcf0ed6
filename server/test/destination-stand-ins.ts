import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

// Local stand-ins of what destinations post to (issue 29), shared by the destinations tests (the webhook receiver is
// receiver.ts).

export const BOT_TOKEN = 'xoxb-1111-2222-abcdefghijklmnop';
export const SIGNING_SECRET = '8f742231b10e8888abcd99yyyzzz85a5';

export interface SlackCall {
  method: string;
  auth: string | undefined;
  args: Record<string, any>;
}

/**
 * A Slack Web API stand-in after Slack's documentation: POST `/api/<method>` with `Authorization: Bearer <token>` and a
 * form (or JSON) body; answers HTTP 200 `{ok:true, channel, ts}` or `{ok:false, error}` (invalid_auth for another
 * token, channel_not_found for an unknown channel, message_not_found for an unknown ts), and 429 with Retry-After
 * when the test queues a rate limit.
 */
export async function slackStandIn() {
  const calls: SlackCall[] = [];
  const queued: Array<{ status: number; headers?: Record<string, string>; body: object }> = [];
  const messages = new Map<string, string>();
  let seq = 100;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const method = (req.url ?? '').replace(/^\/api\//, '');
      const form = req.headers['content-type']?.startsWith('application/x-www-form-urlencoded');
      const args: Record<string, any> = form ? Object.fromEntries(new URLSearchParams(raw)) : JSON.parse(raw || '{}');
      for (const k of ['blocks', 'attachments']) if (typeof args[k] === 'string') args[k] = JSON.parse(args[k]);
      calls.push({ method, auth: req.headers.authorization, args });
      const answer = (status: number, body: object, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
        res.end(JSON.stringify(body));
      };
      const q = queued.shift();
      if (q) return answer(q.status, q.body, q.headers);
      if (req.headers.authorization !== `Bearer ${BOT_TOKEN}`) return answer(200, { ok: false, error: 'invalid_auth' });
      const channel = args.channel === '#noc-globex' || args.channel === 'C0NOC1234' ? 'C0NOC1234' : null;
      if (!channel) return answer(200, { ok: false, error: 'channel_not_found' });
      if (!args.text) return answer(200, { ok: false, error: 'no_text' });
      if (method === 'chat.postMessage') {
        const ts = `1700000000.000${seq++}`;
        messages.set(ts, args.text);
        return answer(200, { ok: true, channel, ts, message: { text: args.text } });
      }
      if (method === 'chat.update') {
        if (!messages.has(args.ts)) return answer(200, { ok: false, error: 'message_not_found' });
        messages.set(args.ts, args.text);
        return answer(200, { ok: true, channel, ts: args.ts, text: args.text });
      }
      if (method === 'chat.postEphemeral') return answer(200, { ok: true, message_ts: `1700000001.000${seq++}` });
      answer(200, { ok: false, error: 'unknown_method' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { calls, queued, messages, apiUrl: `http://127.0.0.1:${port}/api/`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * What a Teams Workflows "When a Teams webhook request is received" flow takes, after Microsoft's documentation of the
 * Adaptive Card message: a `message` whose attachments hold one `application/vnd.microsoft.card.adaptive` card, an
 * AdaptiveCard of schema 1.4 (Teams renders up to 1.5), elements of known types, and actions that are Action.OpenUrl
 * with an absolute URL (Workflows cards cannot post back). Answers the problems found, none when it is well formed.
 */
function adaptiveCardProblems(message: any): string[] {
  const problems: string[] = [];
  if (message?.type !== 'message') problems.push('type must be message');
  const att = message?.attachments;
  if (!Array.isArray(att) || att.length !== 1) return [...problems, 'one attachment expected'];
  if (att[0].contentType !== 'application/vnd.microsoft.card.adaptive') problems.push('contentType');
  const card = att[0].content;
  if (card?.type !== 'AdaptiveCard') problems.push('content.type');
  if (card?.version !== '1.4') problems.push('version must be 1.4');
  if (card?.$schema !== 'http://adaptivecards.io/schemas/adaptive-card.json') problems.push('$schema');
  const known = new Set(['TextBlock', 'Container', 'FactSet', 'ColumnSet', 'Image']);
  const walk = (items: any[]) => {
    for (const el of items ?? []) {
      if (!known.has(el.type)) problems.push(`unknown element ${el.type}`);
      if (el.type === 'TextBlock' && typeof el.text !== 'string') problems.push('TextBlock without text');
      if (el.type === 'Container') {
        if (el.style && !['default', 'emphasis', 'good', 'attention', 'warning', 'accent'].includes(el.style)) problems.push(`style ${el.style}`);
        walk(el.items);
      }
      if (el.type === 'FactSet' && !el.facts.every((f: any) => typeof f.title === 'string' && typeof f.value === 'string')) problems.push('fact');
    }
  };
  walk(card?.body);
  for (const a of card?.actions ?? []) {
    if (a.type !== 'Action.OpenUrl') problems.push(`action ${a.type} cannot work in a Workflows card`);
    if (!/^https?:\/\//.test(a.url ?? '')) problems.push('action url');
  }
  return problems;
}

/** A Workflows receiver stand-in: checks the card, answers 202 Accepted (or what the test queued). */
export async function workflowsReceiver() {
  const got: Array<{ body: any; headers: http.IncomingHttpHeaders; path: string; problems: string[] }> = [];
  const answers: number[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      let body: any = null;
      try {
        body = JSON.parse(raw);
      } catch {
        /* not JSON: a problem below */
      }
      const problems = req.headers['content-type'] === 'application/json' ? adaptiveCardProblems(body) : ['content-type'];
      got.push({ body, headers: req.headers, path: req.url ?? '', problems });
      const status = answers.shift() ?? (problems.length ? 400 : 202);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(status === 202 ? '' : JSON.stringify({ error: { code: 'TriggerInputSchemaMismatch', message: problems.join('; ') } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { got, answers, url: `http://127.0.0.1:${port}/workflows/abc/triggers/manual/paths/invoke?sig=x`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * Verification by the Standard Webhooks reference library (`standardwebhooks`), independent of the server's signing:
 * its `sign` makes the `v1,<base64>` the secret gives `{id}.{timestamp}.{body}`; a header holding it among its
 * space-separated signatures matches. The timestamp is checked against the test's clock (5 minutes), as the library
 * does against the real one.
 */
export function verifyStandardWebhook(secret: string, headers: http.IncomingHttpHeaders, body: string, nowSec: number): boolean {
  const id = headers['webhook-id'];
  const ts = headers['webhook-timestamp'];
  const sigs = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof ts !== 'string' || typeof sigs !== 'string') return false;
  if (Math.abs(nowSec - Number(ts)) > 300) return false;
  const expected = new Webhook(secret).sign(id, new Date(Number(ts) * 1000), body);
  return sigs.split(' ').includes(expected);
}
