import { randomBytes, randomUUID } from 'node:crypto';
import type { ApiToken, ApiTokenCreated, ApiTokenInput } from '../../../contract/api-tokens.ts';
import { API_TOKEN_LIMITS, API_TOKEN_MSG, API_TOKEN_PREFIX } from '../../../contract/api-tokens.ts';
import type { DB } from '../../db/database.ts';
import { badRequest, forbidden, notFound, tooMany, unauthorized } from '../../http/errors.ts';
import { WindowCounter } from '../../http/rate-limit.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import { hashToken } from '../../lib/tokens.ts';
import { isManager, tenantAbilities } from '../tenants/tenants.policy.ts';
import { loadTenantContext } from '../tenants/tenants.service.ts';
import { LAST_USED_EVERY_MS, tokenLive, tokenMemberRole, tokenUse } from './api-tokens.policy.ts';
import * as repo from './api-tokens.repository.ts';

type TokenRow = Awaited<ReturnType<typeof repo.listTokens>>[number];

function toApiToken(row: TokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    prefix: row.prefix,
    createdById: row.created_by,
    createdByName: row.creator_name || row.creator_email || null,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
  };
}

/** Owners and admins manage a tenant's tokens; a request made with a token never reaches here (api-tokens.policy). */
function authorizeManage(ctx: TenantContext) {
  if (!isManager(ctx.role) || ctx.apiToken) throw forbidden();
}

export async function listApiTokens(db: DB, ctx: TenantContext): Promise<{ items: ApiToken[] }> {
  authorizeManage(ctx);
  return { items: (await repo.listTokens(db, ctx.tenant.id)).map(toApiToken) };
}

/**
 * A new token, shown once in the answer. Its role is never more than its creator's: only owners and admins create
 * tokens, and `write` acts as an admin at most (api-tokens.policy: tokenMemberRole).
 */
export async function createApiToken(db: DB, ctx: TenantContext, input: ApiTokenInput, now = new Date()): Promise<ApiTokenCreated> {
  authorizeManage(ctx);
  if ((await repo.countLiveTokens(db, ctx.tenant.id)) >= API_TOKEN_LIMITS.perTenant) throw badRequest(API_TOKEN_MSG.tooMany);
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const row = {
    id: randomUUID(),
    tenant_id: ctx.tenant.id,
    name: input.name,
    role: input.role,
    token_hash: hashToken(token),
    prefix: token.slice(0, API_TOKEN_PREFIX.length + 6),
    created_by: ctx.user.id,
    created_at: now.toISOString(),
    expires_at: input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * 86_400_000).toISOString() : null,
    last_used_at: null,
    revoked_at: null,
  };
  await repo.insertToken(db, row);
  return { ...toApiToken({ ...row, creator_name: ctx.user.display_name, creator_email: ctx.user.email }), token };
}

export async function revokeApiToken(db: DB, ctx: TenantContext, id: string, now = new Date()) {
  authorizeManage(ctx);
  if (!(await repo.revokeToken(db, ctx.tenant.id, id, now.toISOString()))) throw notFound(API_TOKEN_MSG.notFound);
}

/** Invalid tokens one address may present a minute (per instance) before it is answered 429. */
export const INVALID_PER_MINUTE = 30;

/**
 * What `Authorization: Bearer adk_…` means on a tenant's route (handed to tenant-context.ts): the token's
 * TenantContext (its creator, named "<creator> via API token '<name>'", with the token's role), or the refusal.
 * The rate limit counts per token and per instance; last_used_at is written at most once a minute per token.
 */
export function apiTokenAuthenticator(db: DB, opts: { ratePerMinute: number; now?: () => Date }) {
  const counter = new WindowCounter(opts.ratePerMinute, 60_000);
  // Guessing tokens from one address: past INVALID_PER_MINUTE refusals a minute it is answered 429 without a look-up.
  const invalid = new WindowCounter(INVALID_PER_MINUTE, 60_000);
  const lastWrite = new Map<string, number>();
  const clock = opts.now ?? (() => new Date());
  return async (token: string, request: { tenantId: string; method: string; routeUrl: string; ip: string }): Promise<TenantContext> => {
    const now = clock();
    const blocked = invalid.blockedFor(request.ip, now.getTime());
    if (blocked > 0) throw tooMany(API_TOKEN_MSG.tooManyInvalid, blocked);
    const found = token.length <= 200 ? await repo.unsafeFindTokenByHash(db, hashToken(token)) : undefined;
    if (!found || !tokenLive(found.token, now)) {
      invalid.hit(request.ip, now.getTime());
      throw unauthorized(API_TOKEN_MSG.invalid);
    }
    const { token: row, user } = found;
    // Another tenant's route: 404 like a missing tenant (before anything about the route is said).
    if (row.tenant_id !== request.tenantId) throw notFound();
    const use = tokenUse(row.role, request.method, request.routeUrl);
    if (use === 'notHere') throw forbidden(API_TOKEN_MSG.notHere);
    if (use === 'readOnly') throw forbidden(API_TOKEN_MSG.readOnly);
    const at = now.getTime();
    const wait = counter.blockedFor(row.id, at);
    if (wait > 0) throw tooMany(API_TOKEN_MSG.rateLimited, wait);
    counter.hit(row.id, at);

    const creator = await loadTenantContext(db, { ...user, token_hash: row.token_hash }, row.tenant_id);
    // A creator no longer a member of the tenant takes their tokens with them.
    if (!creator) throw unauthorized(API_TOKEN_MSG.invalid);
    if ((lastWrite.get(row.id) ?? 0) <= at - LAST_USED_EVERY_MS) {
      lastWrite.set(row.id, at);
      if (lastWrite.size > 10_000) lastWrite.clear();
      await repo.touchLastUsed(db, row.tenant_id, row.id, now.toISOString(), new Date(at - LAST_USED_EVERY_MS).toISOString());
    }
    const role = tokenMemberRole(creator.role);
    const name = API_TOKEN_MSG.actorName(user.display_name || user.email, row.name);
    return {
      user: { ...creator.user, display_name: name },
      tenant: creator.tenant,
      role,
      abilities: tenantAbilities(role),
      apiToken: { id: row.id, name: row.name, role: row.role },
    };
  };
}
