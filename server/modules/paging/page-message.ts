import type { Priority } from '../../../contract/profile.ts';
import type { Message } from '../../notifications/channel.ts';
import { fitSms } from '../../notifications/channels/sms.ts';

/** What a page says of its alert. */
export interface PageSubject {
  id: string;
  title: string;
  description: string | null;
  priority: string;
  source: string;
  created_at: string;
}

/** At most 160 characters: priority, as much of the title as fits, the acknowledge link. */
export const smsText = (priority: string, title: string, url: string) => fitSms(`[${priority}] `, title, ` Ack: ${url}`);

/**
 * A page of an alert for every channel: the email with its Open and Acknowledge links, the push notification (opening
 * the alert, carrying its acknowledge token), the SMS. `level` is null for a subscriber's notice.
 */
export function pageMessage(alert: PageSubject, level: number | null, links: { open: string; ack: string; ackToken: string }): Message {
  const priority = alert.priority.toUpperCase();
  const lines = [
    `${priority} alert: ${alert.title}`,
    '',
    alert.description ? `${alert.description}\n` : '',
    `Source: ${alert.source}`,
    `Opened: ${alert.created_at}`,
    level ? `Escalation level: ${level}` : 'You subscribed to alerts like this one.',
    '',
    `Open alert: ${links.open}`,
    `Acknowledge: ${links.ack}`,
  ].filter((l, i, all) => l !== '' || all[i - 1] !== '');
  return {
    purpose: 'alert',
    priority: alert.priority as Priority,
    title: `[${priority}] ${alert.title}`,
    text: lines.join('\n'),
    summary: alert.description || alert.source,
    sms: smsText(priority, alert.title, links.ack),
    url: links.open,
    pushData: { alertId: alert.id, ackToken: links.ackToken },
  };
}
