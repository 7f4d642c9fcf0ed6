import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { OWN_MSG } from '../../contract/messages.ts';
import { isDatabaseUnavailable } from '../db/database.ts';

/** An error that reaches the client as `{error:{code,message,fields?}}` with its status. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) => new AppError(400, 'bad_request', message, fields);
export const unauthorized = (message: string = OWN_MSG.notSignedIn) => new AppError(401, 'unauthorized', message);
export const forbidden = (message: string = OWN_MSG.forbidden) => new AppError(403, 'forbidden', message);
export const notFound = (message: string = OWN_MSG.notFound) => new AppError(404, 'not_found', message);
export const conflict = (message: string, fields?: Record<string, string>) => new AppError(409, 'conflict', message, fields);
export const tooMany = (message: string, retryAfterSec: number) =>
  new AppError(429, 'rate_limited', message, undefined, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSec))) });

const CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'unavailable',
};

/** The database is away (restart, failover, network): 503 and "retry in 5 s" instead of a bare 500. */
export const serviceUnavailable = () => new AppError(503, 'unavailable', OWN_MSG.unavailable, undefined, { 'retry-after': '5' });

/** Installs the one error shape for every error and for unknown routes; never leaks a stack trace. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, req, reply) => {
    let err = error;
    if (isDatabaseUnavailable(err)) {
      req.log.warn({ err }, 'database unavailable');
      err = serviceUnavailable();
    }
    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers);
      return reply
        .code(err.statusCode)
        .send({ error: { code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}) } });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      for (const v of err.validation) {
        const key = v.instancePath.replace(/^\//, '').replace(/\//g, '.') || err.validationContext || 'body';
        if (!fields[key]) fields[key] = v.message ?? 'Invalid value';
      }
      const message = Object.values(fields)[0] ?? 'Invalid request';
      return reply.code(400).send({ error: { code: 'validation_failed', message, fields } });
    }
    const status = typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) {
      req.log.error({ err }, 'unhandled error');
      // The request id lets a person quote the failure; it finds the log lines and the error report.
      return reply.code(500).send({ error: { code: 'internal', message: 'Internal server error', requestId: req.id } });
    }
    // Fastify's own client errors: malformed JSON, body too large, wrong content type, prototype poisoning…
    const message =
      status === 413
        ? 'Request body is too large'
        : status === 415
          ? 'Unsupported content type; send application/json'
          : err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError
            ? 'Malformed JSON body'
            : err.message;
    return reply.code(status).send({ error: { code: CODES[status] ?? 'bad_request', message } });
  });

  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send({ error: { code: 'not_found', message: OWN_MSG.notFound } });
  });
}
