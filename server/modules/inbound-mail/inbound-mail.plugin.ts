import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../deps.ts';
import { findIntegrationMailbox } from '../integrations/integrations.service.ts';
import { findHeartbeatMailbox } from '../heartbeats/heartbeats.service.ts';
import { MailboxCache } from './mailbox-cache.ts';
import { createSmtpListener } from './smtp-listener.ts';

/** The email-to-alert listener, as `app.inboundMail`. */
export interface InboundMailRuntime {
  /** The port the SMTP listener got, or null while it is not listening (INBOUND_SMTP_PORT=0, or it could not). */
  port(): number | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    inboundMail: InboundMailRuntime;
  }
}

/**
 * Email to alert (issue 28): an SMTP listener (smtp-listener.ts) that turns mail to an integration's address into
 * alerts through the ingestion service, the same way as the HTTP formats.
 * - onReady: starts listening on INBOUND_SMTP_PORT (when not 0). A port that cannot be had (in use, not allowed) is
 *   logged as an error and the server runs on without mail: the HTTP ingestion and paging of every tenant matter more,
 *   and senders keep their mail queued while the operator fixes it.
 * - preClose: stops taking mail and lets the messages being stored finish while the database is still open (onClose
 *   closes it), so a SIGTERM loses none: a message not answered 250 stays with its sender.
 */
async function inboundMail(app: FastifyInstance, deps: Deps) {
  const { config, db, bus } = deps;
  // An integration's address, else a heartbeat monitor's (the two share one namespace of random tokens).
  const cache = new MailboxCache(async (token) => {
    const integration = await findIntegrationMailbox(db, token);
    if (integration) return integration;
    const heartbeatTokenHash = await findHeartbeatMailbox(db, token);
    return heartbeatTokenHash ? { heartbeatTokenHash, revoked: false as const } : null;
  });
  bus.onInvalidateIntegrations((ids) => cache.evict(ids));
  let port: number | null = null;
  app.decorate('inboundMail', { port: () => port } satisfies InboundMailRuntime);

  const settings = config.inboundMail;
  if (settings.port === null) return;
  const listener = createSmtpListener({
    domain: settings.domain,
    tls: settings.tls,
    log: app.log.child({ module: 'inbound-mail' }),
    lookup: (token) => cache.lookup(token),
    deliver: async (auth, event) => {
      const outcome = await app.alerts.ingest.process(auth, event);
      app.metrics.ingested('email', outcome.result);
      return outcome;
    },
    ping: (tokenHash, kind, output) => app.heartbeats.monitor.pingHash(tokenHash, kind, output),
    refused: (reason) => app.metrics.refused('email', reason),
  });
  app.addHook('onReady', async () => {
    try {
      port = await listener.listen(settings.port!, settings.host);
      app.log.info({ port, domain: settings.domain }, 'inbound mail: listening for SMTP');
    } catch (err) {
      app.log.error({ err, port: settings.port }, 'inbound mail is off: the SMTP port could not be opened');
    }
  });
  app.addHook('preClose', async () => {
    await listener.close();
    port = null;
  });
}

export const inboundMailPlugin = fp(inboundMail, { name: 'inbound-mail', dependencies: ['alert-runtime', 'heartbeats'] });
