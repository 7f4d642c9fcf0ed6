import type { FastifyRequest } from 'fastify';
import { redactUrl } from '../../contract/redaction.ts';

export { REDACTED, redactUrl } from '../../contract/redaction.ts';

/** Fastify's own request serializer, with the URL redacted (headers are not logged at all). */
export function requestSerializer(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    version: req.headers?.['accept-version'] as string | undefined,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket ? req.socket.remotePort : undefined,
  };
}
