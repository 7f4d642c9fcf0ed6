import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody } from '../../../contract/common.ts';
import { ChatLinkInfo, ChatLinkParam, ChatLinkResult } from '../../../contract/destinations.ts';
import { signedIn, requireUser } from '../../http/session.ts';
import { chatLinkInfo, useChatLink } from './chat-actions.ts';
import type { DeliveryDeps } from './destination-delivery.ts';
import { handleSlackInteraction } from './slack-interactions.ts';
import { slackSignatureValid } from './slack-signature.ts';
import { unauthorized } from '../../http/errors.ts';

/**
 * Chat routes (issue 29): Slack's button clicks (`POST /api/slack/interactions`, signed by Slack: no session, no CSRF
 * token), and the one-time links of chat posts (`/api/chat-links/:token`: GET describes, POST acts as the signed-in
 * member).
 */
export function registerChatRoutes(app: FastifyInstance, deps: DeliveryDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

  r.get('/api/chat-links/:token', { schema: { tags: ['destinations'], params: ChatLinkParam, response: { 200: ChatLinkInfo, ...errors } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    return chatLinkInfo(deps.db, req.params.token, deps.jobs.clock());
  });
  r.post('/api/chat-links/:token', { onRequest: signedIn, schema: { tags: ['destinations'], params: ChatLinkParam, response: { 200: ChatLinkResult, ...errors } } }, async (req) =>
    useChatLink(deps, requireUser(req), req.params.token, deps.jobs.clock()),
  );

  // Slack posts its interactions as a form with one `payload` field; the signature covers the raw body, so this route
  // reads it as a string and checks the signature before anything is parsed.
  app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_req, body, done) => done(null, String(body)));
    scope.post('/api/slack/interactions', { schema: { hide: true } }, async (req, reply) => {
      const raw = typeof req.body === 'string' ? req.body : '';
      const headers = { signature: req.headers['x-slack-signature'], timestamp: req.headers['x-slack-request-timestamp'] };
      if (!slackSignatureValid(deps.slack.signingSecret, headers, raw, Math.floor(deps.jobs.clock().getTime() / 1000))) throw unauthorized('Invalid Slack signature');
      const answer = await handleSlackInteraction(deps, new URLSearchParams(raw).get('payload'));
      return reply.code(200).send(answer ?? '');
    });
  });
}
