import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../deps.ts';
import { alertFanOut, attemptDelivery, DELIVER_JOB, destinationCache, type DeliveryDeps } from './destination-delivery.ts';
import { registerChatRoutes } from './chat.routes.ts';
import { registerDestinationRoutes } from './destinations.routes.ts';
import { checkPolicyDestinationsOnSave } from './level-destinations-check.ts';

/**
 * Destinations: outbound webhooks, Microsoft Teams and Slack (issue 29). Alert changes heard on the bus become deliveries; each attempt is a
 * durable job (`destinations.deliver`), retried on the Standard Webhooks schedule by the delivery itself.
 */
async function destinations(app: FastifyInstance, deps: Deps) {
  const delivery: DeliveryDeps = {
    db: deps.db,
    jobs: app.jobs,
    outbound: { allowPrivate: deps.config.outbound.allowPrivate, allowed: deps.config.outbound.allowCidrs },
    // Read when used: a server listening on a port chosen at start learns its address afterwards.
    get publicUrl() {
      return deps.config.publicUrl;
    },
    destinations: destinationCache(deps.db),
    bus: deps.bus,
    slack: deps.config.slack,
    mailer: deps.mailer,
  };
  deps.bus.onAlertChange(alertFanOut(delivery, app.log));
  app.jobs.handle(DELIVER_JOB, async (job, ctx) => {
    const { deliveryId } = ctx.payload as { deliveryId: string };
    if (job.tenant_id) await attemptDelivery(delivery, job.tenant_id, deliveryId, ctx.now);
  });
  registerDestinationRoutes(app, delivery);
  registerChatRoutes(app, delivery);
  // An escalation level's posts (level-posts.service.ts) name only the tenant's destinations.
  checkPolicyDestinationsOnSave(app, deps.db);
}

export const destinationsPlugin = fp(destinations, { name: 'destinations', dependencies: ['jobs', 'alert-runtime'] });
