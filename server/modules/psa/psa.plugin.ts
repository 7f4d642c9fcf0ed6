import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../deps.ts';

/** PSA connections (issue 30): tickets in ConnectWise PSA, Autotask and HaloPSA. Placeholder until the module lands. */
async function psa(_app: FastifyInstance, _deps: Deps) {}

export const psaPlugin = fp(psa, { name: 'psa', dependencies: ['jobs', 'alert-runtime'] });
