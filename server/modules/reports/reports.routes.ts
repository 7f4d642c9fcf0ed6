import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody } from '../../../contract/common.ts';
import { ReportParams, ReportSummary, ReportSummaryQuery } from '../../../contract/reports.ts';
import type { Deps } from '../../deps.ts';
import { signedIn } from '../../http/session.ts';
import { reportSummary } from './reports.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/**
 * Reports (issue 31) under /api/tenants/:tenantId/reports: owners and admins (members 403; another tenant 404 like a
 * missing one). Read-only figures of the alerts opened in a period.
 */
export function registerReportRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/tenants/:tenantId/reports/summary',
    {
      onRequest: signedIn,
      config: { tenantScoped: true },
      schema: { tags: ['reports'], params: ReportParams, querystring: ReportSummaryQuery, response: { 200: ReportSummary, ...errors } },
    },
    async (req) => reportSummary(deps, req.tenantContext, req.query),
  );
}
