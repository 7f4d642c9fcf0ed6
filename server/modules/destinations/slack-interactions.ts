import { DESTINATION_MSG } from '../../../contract/destinations.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { actFromChat, chatLinkUrl, issueSlackLink, linkedMember } from './chat-actions.ts';
import { unsafeFindDestination } from './chat.repository.ts';
import { secretKey, type DeliveryDeps } from './destination-delivery.ts';
import { callSlack, SLACK_ACTIONS, slackClient } from './slack.ts';
import { decryptSecret } from './webhook-signing.ts';

interface BlockActions {
  type: string;
  user?: { id?: string; team_id?: string };
  team?: { id?: string } | null;
  channel?: { id?: string };
  actions?: Array<{ action_id?: string; value?: string }>;
}

/** The answer to a click that did nothing (shown to the clicker only). */
const ephemeral = (text: string) => ({ response_type: 'ephemeral', replace_original: false, text });

/**
 * A verified Slack interaction (the route checked its signature): an Acknowledge or Resolve click on one of our
 * messages acts on the alert as the Alertdesk member linked to the Slack user, through the alert service (the
 * message is then updated like after any change). An unlinked user gets an ephemeral message with a one-time "link
 * your account" link. The button names its destination; its alert must be of that destination's tenant (404 else).
 */
export async function handleSlackInteraction(deps: DeliveryDeps, payloadText: string | null): Promise<object | null> {
  let payload: BlockActions;
  try {
    payload = JSON.parse(payloadText ?? '') as BlockActions;
  } catch {
    throw badRequest('The payload field is not JSON');
  }
  const action = payload.type === 'block_actions' ? payload.actions?.[0] : undefined;
  const kind = action?.action_id === SLACK_ACTIONS.acknowledge ? 'acknowledge' : action?.action_id === SLACK_ACTIONS.resolve ? 'resolve' : null;
  // Open is a link button (Slack still tells us of the click); anything else is not ours to act on.
  if (!kind) return null;
  const [destinationId, alertId] = (action?.value ?? '').split(':');
  const dest = destinationId ? await unsafeFindDestination(deps.db, destinationId) : undefined;
  const teamId = payload.team?.id ?? payload.user?.team_id;
  const slackUserId = payload.user?.id;
  if (!dest || dest.type !== 'slack' || !dest.secret_enc || !alertId) throw notFound(DESTINATION_MSG.notFound);
  if (!teamId || !slackUserId) throw badRequest('The payload names no Slack user');
  const now = deps.jobs.clock();
  const member = await linkedMember(deps.db, dest.tenant_id, teamId, slackUserId);
  if (!member) {
    const token = await issueSlackLink(deps.db, { tenantId: dest.tenant_id, destinationId: dest.id, slackTeamId: teamId, slackUserId, now });
    const text = DESTINATION_MSG.slackLinkPrompt(chatLinkUrl(deps.publicUrl, token));
    const client = slackClient(deps.slack.apiUrl, decryptSecret(await secretKey(deps.db), dest.secret_enc));
    // Not awaited: Slack wants the click answered within 3 seconds, and a slow Web API must not make it time out.
    if (payload.channel?.id) void callSlack(client, 'chat.postEphemeral', { channel: payload.channel.id, user: slackUserId, text }).catch(() => {});
    return ephemeral(text);
  }
  try {
    await actFromChat(deps, { tenantId: dest.tenant_id, user: member, alertId, action: kind, via: 'Slack' });
    return null;
  } catch (err) {
    // Someone else was quicker (409), or the member may not do this (403): said to the clicker alone.
    if (err instanceof AppError && (err.statusCode === 409 || err.statusCode === 403)) return ephemeral(err.message);
    throw err;
  }
}
