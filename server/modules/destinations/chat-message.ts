import { PRIORITY_LABELS, STATUS_LABELS, type Alert } from '../../../contract/alerts.ts';

/**
 * What a chat post (Teams card, Slack message) says of an alert, shared by both: the priority's colour, client, title,
 * description, age, status, assignee and the links its buttons open. Pure.
 */
export interface ChatAlert {
  id: string;
  title: string;
  description: string;
  priority: Alert['priority'];
  priorityLabel: string;
  status: Alert['status'];
  statusLabel: string;
  /** `#rrggbb` of the priority. */
  colour: string;
  /** Adaptive Cards' colour name of the priority. */
  teamsColour: 'attention' | 'warning' | 'accent' | 'good' | 'default';
  client: string | null;
  assignee: string | null;
  age: string;
  /** Still open to acknowledge / resolve (buttons shown only then). */
  canAcknowledge: boolean;
  canResolve: boolean;
  openUrl: string;
}

const COLOUR: Record<Alert['priority'], string> = { critical: '#c92a2a', high: '#e8590c', medium: '#f08c00', low: '#1971c2', info: '#868e96' };
const TEAMS_COLOUR: Record<Alert['priority'], ChatAlert['teamsColour']> = { critical: 'attention', high: 'attention', medium: 'warning', low: 'accent', info: 'default' };

/** "opened just now", "opened 14 min ago", "opened 2 h 5 min ago", "opened 3 days ago". */
export function openedAgo(createdAt: string, now: Date): string {
  const min = Math.max(0, Math.floor((now.getTime() - Date.parse(createdAt)) / 60_000));
  if (min < 1) return 'opened just now';
  const h = Math.floor(min / 60);
  const words = min < 60 ? `${min} min` : h < 48 ? `${h} h${min % 60 ? ` ${min % 60} min` : ''}` : `${Math.floor(h / 24)} days`;
  return `opened ${words} ago`;
}

export const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** What a Slack message of the alert shows that can change: a change of none of it (a repeat) is not worth an update. */
export const shownState = (alert: Pick<Alert, 'status' | 'priority' | 'assignedTo'>) => `${alert.status}|${alert.priority}|${alert.assignedTo ?? ''}`;

export const alertUrl = (publicUrl: string, alertId: string) => `${publicUrl}/app/dashboard?alert=${encodeURIComponent(alertId)}`;

export function chatAlert(alert: Alert, publicUrl: string, now: Date): ChatAlert {
  return {
    id: alert.id,
    title: shorten(alert.title, 250),
    description: shorten(alert.description ?? '', 1000),
    priority: alert.priority,
    priorityLabel: PRIORITY_LABELS[alert.priority],
    status: alert.status,
    statusLabel: STATUS_LABELS[alert.status],
    colour: COLOUR[alert.priority],
    teamsColour: TEAMS_COLOUR[alert.priority],
    client: alert.clientName,
    assignee: alert.assigneeName,
    age: openedAgo(alert.createdAt, now),
    canAcknowledge: alert.status === 'new',
    canResolve: alert.status !== 'resolved' && alert.status !== 'closed',
    openUrl: alertUrl(publicUrl, alert.id),
  };
}

/** The approval an `approval.*` event's body carries (approval-events.service.ts). */
export interface ApprovalEventData {
  id: string;
  type: string;
  title: string;
  status: string;
  requester: { id: string; name: string };
  decider: { id: string; name: string } | null;
}

/** What a chat post of an approval event says: "Approval approved", "Replace the core switch: requested by Ana, approved by Ben". */
export function approvalNotice(event: string, a: ApprovalEventData, publicUrl: string) {
  const decided = event === 'approval.decided' ? `, ${a.status}${a.decider ? ` by ${a.decider.name}` : ''}` : '';
  return {
    headline: event === 'approval.requested' ? 'Approval requested' : `Approval ${a.status}`,
    text: `${shorten(a.title, 250)}: requested by ${a.requester.name}${decided}`,
    openUrl: `${publicUrl}/app/approval-workflows`,
  };
}
