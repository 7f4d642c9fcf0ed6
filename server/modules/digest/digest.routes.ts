import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody } from '../../../contract/common.ts';
import { DIGEST_MSG, DigestOffInfo, DigestOffParam, DigestPreviewQuery } from '../../../contract/digest.ts';
import { notFound } from '../../http/errors.ts';
import { requireUser, signedIn } from '../../http/session.ts';
import type { Digest } from './digest.service.ts';

/**
 * The weekly digest's routes: the signed-in person's preview (the mail's HTML, as it would go out now), and the "turn
 * off" link's two halves (GET describes: mail scanners follow links; POST turns off, also as RFC 8058's one-click
 * POST with a form body, which mail providers send without a session).
 */
export function registerDigestRoutes(app: FastifyInstance, digest: Digest, now: () => Date) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/me/digest/preview',
    { onRequest: signedIn, schema: { tags: ['profile'], querystring: DigestPreviewQuery, response: { 200: z.string(), 401: ErrorBody, 404: ErrorBody } } },
    async (req, reply) => {
      const mail = await digest.preview(requireUser(req).id, now(), req.query.tenantId);
      if (!mail) throw notFound(DIGEST_MSG.notMember);
      return reply.type('text/html; charset=utf-8').send(mail.html ?? mail.text);
    },
  );

  r.get('/api/digest/off/:token', { schema: { tags: ['profile'], params: DigestOffParam, response: { 200: DigestOffInfo, 404: ErrorBody } } }, async (req) => {
    const info = await digest.offInfo(req.params.token);
    if (!info) throw notFound(DIGEST_MSG.linkInvalid);
    return { email: info.email, weeklyDigest: info.weeklyDigest };
  });

  // One-click unsubscribe posts `List-Unsubscribe=One-Click` as a form; only this route reads form bodies.
  app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_req, body, done) => done(null, { form: String(body) }));
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/api/digest/off/:token',
      { schema: { tags: ['profile'], params: DigestOffParam, response: { 200: DigestOffInfo, 404: ErrorBody } } },
      async (req) => {
        const done = await digest.turnOff(req.params.token);
        if (!done) throw notFound(DIGEST_MSG.linkInvalid);
        return done;
      },
    );
  });
}
