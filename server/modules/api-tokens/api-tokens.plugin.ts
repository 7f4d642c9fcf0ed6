import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../deps.ts';
import { provideApiTokenAuth } from '../../http/tenant-context.ts';
import { registerApiTokenRoutes } from './api-tokens.routes.ts';
import { apiTokenAuthenticator } from './api-tokens.service.ts';

/** API tokens (issue 29): their routes, and `Authorization: Bearer adk_…` on the tenants' routes. */
async function apiTokens(app: FastifyInstance, deps: Deps) {
  provideApiTokenAuth(app, apiTokenAuthenticator(deps.db, { ratePerMinute: deps.config.apiTokenRateLimit }));
  registerApiTokenRoutes(app, deps.db);
}

export const apiTokensPlugin = fp(apiTokens, { name: 'api-tokens', dependencies: ['jobs', 'alert-runtime'] });
