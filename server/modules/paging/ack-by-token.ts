import { PAGING_MSG, type AckResult } from '../../../contract/paging.ts';
import type { Deps } from '../../deps.ts';
import { AppError, conflict, forbidden, notFound } from '../../http/errors.ts';
import { hashToken as hash } from '../../lib/tokens.ts';
import { acknowledgeAlertAs } from '../alerts/alerts.service.ts';
import { listActiveMemberAccounts } from '../members/members.service.ts';
import { verifyAckToken } from './ack-links.ts';
import { unsafeFindSignedAckLink, useSignedAckToken } from './paging.repository.ts';

/**
 * A page's signed acknowledge token, wherever it comes back from (the acknowledge page's button, a voice call's
 * "press 1"): what it names, and acknowledging as its person, once.
 */
export function ackByToken(deps: Deps) {
  // A link of ours (signed), with what it names; anything else is no link.
  const find = async (token: string) => {
    const signed = await verifyAckToken(deps.db, token);
    return signed ? unsafeFindSignedAckLink(deps.db, { ...signed, tokenHash: hash(token) }) : undefined;
  };
  const load = async (token: string) => {
    const row = await find(token);
    if (!row || row.expires_at <= new Date().toISOString()) throw notFound(PAGING_MSG.ackLinkInvalid);
    return row;
  };

  /** Acknowledges the token's alert as its person (still an active member), using the token up in the same write. */
  async function acknowledge(token: string): Promise<AckResult> {
    const row = await load(token);
    if (row.used_at) throw conflict(PAGING_MSG.ackLinkUsed);
    const [member] = await listActiveMemberAccounts(deps.db, row.tenant_id, [row.user_id]);
    if (!member) throw forbidden(PAGING_MSG.ackNoLongerMember);
    if (row.status !== 'new') throw conflict(PAGING_MSG.ackAlready(row.status), { status: row.status });
    try {
      const detail = await acknowledgeAlertAs(deps, row.tenant_id, { id: member.id, name: member.display_name || member.email }, row.alert_id, async (trx, at) => {
        if (!(await useSignedAckToken(trx, row, at))) throw conflict(PAGING_MSG.ackLinkUsed);
      });
      return { alertId: row.alert_id, status: detail.alert.status, message: PAGING_MSG.ackDone };
    } catch (err) {
      // Someone acknowledged it meanwhile (409 with the current status): say so in this page's words.
      if (err instanceof AppError && err.statusCode === 409 && err.message !== PAGING_MSG.ackLinkUsed) {
        const now = await find(token);
        throw conflict(PAGING_MSG.ackAlready(now?.status ?? 'acknowledged'), { status: now?.status ?? 'acknowledged' });
      }
      throw err;
    }
  }

  return { find, load, acknowledge };
}
