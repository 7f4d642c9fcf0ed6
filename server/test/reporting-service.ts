import http from 'node:http';
import zlib from 'node:zlib';

/**
 * A stand-in for a Sentry-compatible error-reporting service (edge of the world), for the server's and the browser's
 * tests: keeps every envelope it is sent, as text, and answers the user feedback dialog's script request with a
 * script that puts a marker (`data-testid="feedback-dialog"`) in the page. CORS is open, as the real service's is.
 */
export async function reportingService() {
  const envelopes: string[] = [];
  const dialogRequests: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' };
      if (req.method === 'OPTIONS') return res.writeHead(204, cors).end();
      if (req.url?.startsWith('/api/embed/error-page/')) {
        dialogRequests.push(req.url);
        return res
          .writeHead(200, { ...cors, 'content-type': 'text/javascript' })
          .end("document.body.insertAdjacentHTML('beforeend', '<div data-testid=\"feedback-dialog\">feedback</div>');");
      }
      const body = Buffer.concat(chunks);
      envelopes.push((req.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(body) : body).toString('utf8'));
      res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as import('node:net').AddressInfo).port;
  /** Every item of every envelope: its header's type and its parsed payload. */
  const items = () =>
    envelopes.flatMap((text) => {
      const lines = text.split('\n').filter(Boolean).slice(1);
      const out: Array<{ type: string; payload: any }> = [];
      for (let i = 0; i + 1 < lines.length; i += 2) out.push({ type: JSON.parse(lines[i]!).type, payload: JSON.parse(lines[i + 1]!) });
      return out;
    });
  return { dsn: `http://public@127.0.0.1:${port}/1`, envelopes, dialogRequests, items, close: () => new Promise<void>((r) => server.close(() => r())) };
}
