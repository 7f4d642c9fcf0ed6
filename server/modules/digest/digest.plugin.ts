import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../deps.ts';
import { createDigest, DIGEST_JOB, type Digest } from './digest.service.ts';
import { registerDigestRoutes } from './digest.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The weekly digest (tests run its sweep and job with the worker's clock). */
    digest: Digest;
  }
}

/** The weekly digest (issue 31): its sweep and job on the worker, its preview and "turn off" routes. */
async function digest(app: FastifyInstance, deps: Deps) {
  const d = createDigest({ db: deps.db, dialect: deps.dialect, mailer: deps.mailer, publicUrl: () => deps.config.publicUrl });
  app.decorate('digest', d);
  app.jobs.sweep((now) => d.sweep(now));
  app.jobs.handle(DIGEST_JOB, d.handler);
  registerDigestRoutes(app, d, app.jobs.clock);
}

export const digestPlugin = fp(digest, { name: 'digest', dependencies: ['jobs'] });
