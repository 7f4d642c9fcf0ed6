import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../deps.ts';

/** Email to alert (issue 28): placeholder, filled in by that work. */
async function inboundMail(_app: FastifyInstance, _deps: Deps) {}

export const inboundMailPlugin = fp(inboundMail, { name: 'inbound-mail', dependencies: ['alert-runtime'] });
