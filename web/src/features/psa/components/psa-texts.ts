import type { AlertPriority } from '../../../../../contract/alerts.ts';
import { PSA_DEFAULT_PRIORITIES, type PsaType } from '../../../../../contract/psa.ts';

/** The PSA screens' own texts (the issue is silent on them; the server's are PSA_MSG). */
export const PSA_UI = {
  title: 'PSA tickets',
  intro: 'Alerts open tickets in your PSA (ConnectWise PSA, Autotask, HaloPSA): one ticket per problem, notes for what happens to the alert, closed when it is resolved.',
  none: 'No PSA connection yet. Connect your PSA so alerts open tickets in it.',
  loadFailed: 'Failed to load PSA connections. Please try again.',
  mapLoadFailed: 'Failed to load the company mapping. Please try again.',
  companiesFailed: "The PSA's companies could not be read",
  noClients: 'This organization has no clients yet: add clients to map them to PSA companies.',
  secretKept: 'Stored. Leave empty to keep the current value.',
  secretPlaceholder: 'Leave empty to keep the current value',
  secretNew: 'Stored encrypted, never shown again.',
  deleteConfirm: (name: string) => `Delete the PSA connection "${name}"? Its company mapping goes with it; tickets already opened stay in the PSA.`,
  deleted: (name: string) => `${name} is deleted`,
  saved: 'Company mapping saved',
  queue: (n: number) => `${n} ${n === 1 ? 'call' : 'calls'} waiting`,
  wholeNumber: 'Must be a whole number',
} as const;

/** One setting of a PSA type as the form asks for it: text, a secret (password input) or a numeric id. */
export interface SettingField {
  key: string;
  label: string;
  kind: 'text' | 'secret' | 'id';
  placeholder?: string;
  description?: string;
  /** What a new connection starts with (the PSA's usual value). */
  initial?: string;
}

/** The settings each type needs (contract/psa.ts), with where to find each in the PSA. */
export const SETTINGS_FIELDS: Record<PsaType, SettingField[]> = {
  connectwise: [
    { key: 'siteUrl', label: 'Site URL', kind: 'text', placeholder: 'https://na.myconnectwise.net', description: 'The address you sign in to ConnectWise PSA at (on premises: your server).' },
    { key: 'companyId', label: 'Company ID', kind: 'text', placeholder: 'yourmsp', description: 'The company you enter at sign-in.' },
    { key: 'publicKey', label: 'Public key', kind: 'text', description: 'Of an API member: System → Members → API Members → API Keys.' },
    { key: 'privateKey', label: 'Private key', kind: 'secret' },
    { key: 'clientId', label: 'Client ID', kind: 'secret', description: "Your integration's clientId from the ConnectWise Developer Network." },
    { key: 'board', label: 'Service board', kind: 'text', placeholder: 'Alerts' },
    { key: 'newStatus', label: 'Status of a new ticket', kind: 'text', initial: 'New' },
    { key: 'closedStatus', label: 'Status of a closed ticket', kind: 'text', initial: 'Closed' },
  ],
  autotask: [
    { key: 'username', label: 'API user name', kind: 'text', placeholder: 'alertdesk@yourmsp.com', description: 'An API-only user: Admin → Account Settings & Users → Resources/Users → New API User.' },
    { key: 'secret', label: 'Secret', kind: 'secret' },
    { key: 'integrationCode', label: 'Tracking identifier', kind: 'secret', description: "The API user's tracking identifier (API integration code)." },
    { key: 'queueId', label: 'Queue ID', kind: 'id', description: 'The queue new tickets go to.' },
    { key: 'newStatus', label: 'Status ID of a new ticket', kind: 'id', initial: '1' },
    { key: 'completeStatus', label: 'Status ID of a completed ticket', kind: 'id', initial: '5' },
  ],
  halopsa: [
    { key: 'baseUrl', label: 'HaloPSA URL', kind: 'text', placeholder: 'https://yourmsp.halopsa.com' },
    { key: 'clientId', label: 'Client ID', kind: 'text', description: 'Configuration → Integrations → HaloPSA API → View Applications → New: Client ID and Secret (Services), permission "all".' },
    { key: 'clientSecret', label: 'Client secret', kind: 'secret' },
    { key: 'ticketTypeId', label: 'Ticket type ID', kind: 'id' },
    { key: 'newStatusId', label: 'Status ID of a new ticket', kind: 'id', initial: '1' },
    { key: 'closedStatusId', label: 'Status ID of a closed ticket', kind: 'id', initial: '9' },
  ],
};

/** What an empty priority mapping field means: the PSA's default for it. */
export const priorityPlaceholder = (type: PsaType, p: AlertPriority) =>
  type === 'autotask' ? `By label: ${p === 'info' ? 'Low' : p[0].toUpperCase() + p.slice(1)}` : `Default: ${PSA_DEFAULT_PRIORITIES[type][p]}`;

/** How each PSA tells Alertdesk of a closed ticket, shown beside the inbound URL. */
export const INBOUND_HELP: Record<PsaType, string> = {
  connectwise: 'Alertdesk registers this URL as a ticket callback in ConnectWise PSA itself when the connection is saved (a failure shows as its last error): nothing to set up by hand.',
  halopsa: 'In HaloPSA: Configuration → Integrations → Webhooks → New. Paste this URL as the payload URL, choose the ticket update events and save. Keep the URL private: it is the key.',
  autotask: 'Autotask is asked every minute for the tickets Alertdesk opened that changed: nothing to set up.',
};
