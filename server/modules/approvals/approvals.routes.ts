import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  APPROVAL_LIMITS,
  APPROVAL_MSG,
  ApprovalAttachmentParams,
  ApprovalListQuery,
  ApprovalPolicy,
  ApprovalPolicyInput,
  ApprovalPolicyList,
  ApprovalPolicyParams,
  ApprovalRequest,
  ApprovalRequestInput,
  ApprovalRequestList,
  ApprovalRequestParams,
  ApprovalRequestTypes,
  ApproveBody,
  DelegateBody,
  RejectBody,
} from '../../../contract/approvals.ts';
import { ErrorBody, INPUT_MSG, Ok, TenantParam } from '../../../contract/common.ts';
import { guardJson } from '../../http/body-guard.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import { signedIn } from '../../http/session.ts';
import * as policiesService from './approval-policies.service.ts';
import * as repo from './approvals.repository.ts';
import * as service from './approvals.service.ts';
import type { ApprovalDeps, IncomingFile } from './approvals.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const tags = ['approvals'];

/** Files read from a multipart upload, by request, between preValidation and the handler. */
const uploads = new WeakMap<FastifyRequest, IncomingFile[]>();

const tooLarge = (message: string) => new AppError(413, 'payload_too_large', message, { attachments: message });

/** A stored filename: no directories, no control characters, at most 255 characters. */
export function cleanFilename(name: string | undefined): string {
  const base = (name ?? '').split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f"]/g, '').replace(/[\ud800-\udfff]/g, '').trim();
  return (clean || 'attachment').slice(0, APPROVAL_LIMITS.filename);
}

const SAFE_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;

/**
 * A multipart request create: the "request" field (the JSON body) first, then up to 5 files named "attachments"
 * of at most 10 MB each. The JSON becomes `req.body` (guarded like any JSON body), so the route's schema validates
 * it exactly as it validates a plain JSON create.
 */
async function readMultipart(req: FastifyRequest) {
  if (!req.isMultipart()) return;
  const files: IncomingFile[] = [];
  let body: unknown;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        if (part.fieldname !== 'request' || body !== undefined || typeof part.value !== 'string') throw badRequest(APPROVAL_MSG.multipartInvalid, { request: APPROVAL_MSG.multipartInvalid });
        try {
          body = JSON.parse(part.value);
        } catch {
          throw badRequest(APPROVAL_MSG.invalidJson, { request: APPROVAL_MSG.invalidJson });
        }
        continue;
      }
      if (body === undefined || part.fieldname !== 'attachments') throw badRequest(APPROVAL_MSG.multipartInvalid, { request: APPROVAL_MSG.multipartInvalid });
      if (files.length >= APPROVAL_LIMITS.attachments) throw tooLarge(APPROVAL_MSG.tooManyAttachments);
      const data = await part.toBuffer();
      const type = part.mimetype && SAFE_TYPE.test(part.mimetype) ? part.mimetype.toLowerCase() : 'application/octet-stream';
      files.push({ filename: cleanFilename(part.filename), contentType: type, data });
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(APPROVAL_MSG.attachmentTooLarge);
    if (code === 'FST_FILES_LIMIT') throw tooLarge(APPROVAL_MSG.tooManyAttachments);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw tooLarge(APPROVAL_MSG.multipartInvalid);
    if (code?.startsWith('FST_')) throw badRequest(APPROVAL_MSG.multipartInvalid, { request: APPROVAL_MSG.multipartInvalid });
    throw err;
  }
  if (body === undefined) throw badRequest(APPROVAL_MSG.multipartInvalid, { request: APPROVAL_MSG.multipartInvalid });
  const { problem } = guardJson(body, 'refuse');
  if (problem) {
    const message = problem.kind === 'tooDeep' ? INPUT_MSG.tooDeep : problem.kind === 'badCharacters' ? INPUT_MSG.badCharacters : INPUT_MSG.forbiddenKey;
    throw badRequest(message, { [problem.path.join('.') || 'request']: message });
  }
  req.body = body;
  uploads.set(req, files);
}

/** `Content-Disposition: attachment` with an ASCII fallback name and the real one (RFC 6266 / 5987). */
function disposition(filename: string) {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/[\\"]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * Approval workflows under /api/tenants/:tenantId: policies (owners and admins), requests (members see their own,
 * those naming them, and owners and admins all), decisions, and attachments as downloads. Another tenant's request
 * or policy answers 404 exactly like a missing one.
 */
export function registerApprovalRoutes(app: FastifyInstance, deps: ApprovalDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = deps;
  const policies = '/api/tenants/:tenantId/approvalPolicies';
  const requests = '/api/tenants/:tenantId/approvalRequests';
  const scoped = { onRequest: signedIn, config: { tenantScoped: true } };

  r.get(policies, { ...scoped, schema: { tags, params: TenantParam, response: { 200: ApprovalPolicyList, ...errors } } }, async (req) => policiesService.listPolicies(db, req.tenantContext));
  r.post(policies, { ...scoped, schema: { tags, params: TenantParam, body: ApprovalPolicyInput, response: { 201: ApprovalPolicy, ...errors } } }, async (req, reply) =>
    reply.code(201).send(await policiesService.createPolicy(deps, req.tenantContext, req.body)),
  );
  r.get(`${policies}/:policyId`, { ...scoped, schema: { tags, params: ApprovalPolicyParams, response: { 200: ApprovalPolicy, ...errors } } }, async (req) =>
    policiesService.getPolicy(db, req.tenantContext, req.params.policyId),
  );
  r.put(`${policies}/:policyId`, { ...scoped, schema: { tags, params: ApprovalPolicyParams, body: ApprovalPolicyInput, response: { 200: ApprovalPolicy, ...errors } } }, async (req) =>
    policiesService.updatePolicy(deps, req.tenantContext, req.params.policyId, req.body),
  );
  r.delete(`${policies}/:policyId`, { ...scoped, schema: { tags, params: ApprovalPolicyParams, response: { 200: Ok, ...errors } } }, async (req) => {
    await policiesService.deletePolicy(deps, req.tenantContext, req.params.policyId);
    return { ok: true as const };
  });

  r.get('/api/tenants/:tenantId/approvalRequestTypes', { ...scoped, schema: { tags, params: TenantParam, response: { 200: ApprovalRequestTypes, ...errors } } }, async (req) =>
    policiesService.listRequestTypes(db, req.tenantContext),
  );

  r.get(requests, { ...scoped, schema: { tags, params: TenantParam, querystring: ApprovalListQuery, response: { 200: ApprovalRequestList, ...errors } } }, async (req) =>
    service.listRequests(db, req.tenantContext, req.query),
  );
  r.post(
    requests,
    {
      ...scoped,
      preValidation: readMultipart,
      schema: {
        tags,
        description: 'JSON, or multipart/form-data: a "request" field holding the same JSON, then up to 5 files named "attachments" (10 MB each).',
        params: TenantParam,
        body: ApprovalRequestInput,
        response: { 201: ApprovalRequest, ...errors, 413: ErrorBody },
      },
    },
    async (req, reply) => reply.code(201).send(await service.createRequest(deps, req.tenantContext, req.body, uploads.get(req) ?? [])),
  );
  r.get(`${requests}/:requestId`, { ...scoped, schema: { tags, params: ApprovalRequestParams, response: { 200: ApprovalRequest, ...errors } } }, async (req) =>
    service.getRequest(db, req.tenantContext, req.params.requestId),
  );
  r.post(`${requests}/:requestId/approve`, { ...scoped, schema: { tags, params: ApprovalRequestParams, body: ApproveBody.optional(), response: { 200: ApprovalRequest, ...errors } } }, async (req) =>
    service.approveRequest(deps, req.tenantContext, req.params.requestId, req.body?.comment ?? null),
  );
  r.post(`${requests}/:requestId/reject`, { ...scoped, schema: { tags, params: ApprovalRequestParams, body: RejectBody, response: { 200: ApprovalRequest, ...errors } } }, async (req) =>
    service.rejectRequest(deps, req.tenantContext, req.params.requestId, req.body.reason),
  );
  r.post(`${requests}/:requestId/cancel`, { ...scoped, schema: { tags, params: ApprovalRequestParams, response: { 200: ApprovalRequest, ...errors } } }, async (req) =>
    service.cancelRequest(deps, req.tenantContext, req.params.requestId),
  );
  r.post(`${requests}/:requestId/delegate`, { ...scoped, schema: { tags, params: ApprovalRequestParams, body: DelegateBody, response: { 200: ApprovalRequest, ...errors } } }, async (req) =>
    service.delegateRequest(deps, req.tenantContext, req.params.requestId, req.body.userId),
  );

  r.get(`${requests}/:requestId/attachments/:attachmentId`, { ...scoped, compress: false, schema: { tags, params: ApprovalAttachmentParams } }, async (req, reply) => {
    const a = await service.findAttachmentFor(db, req.tenantContext, req.params.requestId, req.params.attachmentId);
    async function* chunks() {
      for (let seq = 0; ; seq++) {
        const chunk = await repo.readChunk(db, a.id, seq);
        if (!chunk) return;
        yield chunk;
      }
    }
    return reply
      .header('content-type', a.content_type)
      .header('content-length', String(a.size))
      .header('content-disposition', disposition(a.filename))
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store')
      .send(Readable.from(chunks()));
  });
}
