import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  path: string;
}

/** A local webhook receiver: records what comes, answers what the test queued (`state.fallback`, 200, when nothing is). */
export async function receiver() {
  const got: Received[] = [];
  const answers: Array<{ status: number; headers?: Record<string, string>; body?: string }> = [];
  const state = { fallback: { status: 200, body: 'ok' } as { status: number; headers?: Record<string, string>; body?: string } };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ headers: req.headers, body, path: req.url ?? '' });
      const a = answers.shift() ?? state.fallback;
      res.writeHead(a.status, a.headers ?? {});
      res.end(a.body ?? '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { got, answers, state, url: `http://127.0.0.1:${port}/hook`, port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

export const until = async (check: () => Promise<boolean>, ms = 5000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};
