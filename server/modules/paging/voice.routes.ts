import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AckTokenParam, PAGING_MSG } from '../../../contract/paging.ts';
import type { Deps } from '../../deps.ts';
import { AppError, forbidden, notFound } from '../../http/errors.ts';
import { sayTwiml, validTwilioSignature, VOICE_MSG } from '../../notifications/channels/voice.ts';
import { ackByToken } from './ack-by-token.ts';

/**
 * A voice page's "press 1 to acknowledge" (issue 27): the provider posts the key pressed (`Digits`) to the call's own
 * callback, `/api/voice/{token}`, the page's signed single-use acknowledge token. The request must carry the provider's
 * signature (X-Twilio-Signature, keyed by the voice auth token); 1 acknowledges as the paged person, and the call says
 * what became of it.
 */
export function registerVoiceRoutes(app: FastifyInstance, deps: Deps) {
  const { acknowledge } = ackByToken(deps);
  app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, String(body)));
    scope.withTypeProvider<ZodTypeProvider>().post('/api/voice/:token', { schema: { hide: true, params: AckTokenParam } }, async (req, reply) => {
      const voice = deps.config.voice;
      if (!voice) throw notFound();
      const params = new URLSearchParams(typeof req.body === 'string' ? req.body : '');
      // The provider signs the URL it called: ours as the public address says it, path and query as received.
      if (!validTwilioSignature(voice.authToken, `${deps.config.publicUrl}${req.url}`, params, req.headers['x-twilio-signature'] as string | undefined)) {
        throw forbidden('Invalid voice callback signature');
      }
      let say: string = VOICE_MSG.goodbye;
      if (params.get('Digits') === '1') {
        try {
          say = (await acknowledge(req.params.token)).message;
        } catch (err) {
          // The link's own words (used, expired, already acknowledged, no longer a member) are what the caller hears.
          if (!(err instanceof AppError) || err.statusCode >= 500) throw err;
          say = err.message || PAGING_MSG.ackFailed;
        }
      }
      return reply.type('text/xml').send(sayTwiml(say));
    });
  });
}
