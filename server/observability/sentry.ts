import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { scrubReport, type ReportEvent } from '../../contract/redaction.ts';
import type { Config } from '../config.ts';
import { isDatabaseUnavailable } from '../db/database.ts';
import { AppError } from '../http/errors.ts';

/** Spec section 9: performance traces are sampled at 0.5. */
export const TRACES_SAMPLE_RATE = 0.5;

/** True for an error that answers a bare 500 (a bug): not an AppError, a validation failure, a client error or an outage. */
export function isUnhandledError(err: FastifyError | AppError): boolean {
  if (err instanceof AppError || isDatabaseUnavailable(err) || hasZodFastifySchemaValidationErrors(err)) return false;
  return !(typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500);
}

/**
 * Error reporting to a Sentry-compatible service (spec section 7), only in production mode with SENTRY_DSN set;
 * otherwise the SDK is not even loaded. Every error that answers 500 is reported once with its request id; what is
 * sent is scrubbed of cookies, authorization headers, request bodies and secrets in URLs (contract/redaction.ts).
 */
export async function setupErrorReporting(app: FastifyInstance, config: Config) {
  const dsn = config.sentry.serverDsn;
  if (!config.production || !dsn) return;
  const Sentry = await import('@sentry/node');
  Sentry.init({
    dsn,
    environment: 'production',
    tracesSampleRate: TRACES_SAMPLE_RATE,
    // Collect as little as is useful: no user, cookies, bodies (passwords, integration keys), local variables,
    // query data, nor the authorization header; beforeSend scrubs what is left as well.
    dataCollection: {
      userInfo: false,
      cookies: false,
      httpBodies: [],
      httpHeaders: { request: { deny: ['authorization', 'cookie', 'x-api-key', 'proxy-authorization'] }, response: false },
      stackFrameVariables: false,
      databaseQueryData: false,
      queues: false,
    },
    // Reported by the onError hook below only (not Sentry's own capture, which would also report 503s of an outage).
    integrations: [Sentry.fastifyIntegration({ shouldHandleError: () => false })],
    // Whole transactions, so beforeSendTransaction sees (and scrubs) them with their spans.
    traceLifecycle: 'static',
    beforeSend: (event) => scrubReport(event as ReportEvent) as typeof event,
    beforeSendTransaction: (event) => scrubReport(event as ReportEvent) as typeof event,
  });
  // onError runs before whichever error handler answers (the app's, or the PagerDuty scope's).
  app.addHook('onError', async (req, _reply, err) => {
    if (!isUnhandledError(err)) return;
    Sentry.withScope((scope) => {
      scope.setTag('request_id', req.id);
      scope.setTag('route', req.routeOptions.url ?? 'unmatched');
      Sentry.captureException(err);
    });
  });
  app.addHook('onClose', async () => {
    await Sentry.close(2_000);
  });
}
