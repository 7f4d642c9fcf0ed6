import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../deps.ts';

/** API tokens (issue 29): registered here; filled in by its issue's work. */
async function apiTokens(_app: FastifyInstance, _deps: Deps) {}

export const apiTokensPlugin = fp(apiTokens, { name: 'api-tokens', dependencies: ['jobs', 'alert-runtime'] });
