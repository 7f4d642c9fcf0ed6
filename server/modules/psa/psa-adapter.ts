import type { AlertPriority } from '../../../contract/alerts.ts';
import type { PsaCompany, PsaType } from '../../../contract/psa.ts';
import type { PsaRequest } from './psa-http.ts';

/** A ticket as the PSA names it: its id (for calls), its number (for people) and a link into the PSA. */
export interface TicketRef {
  id: string;
  number: string;
  url: string | null;
}

export interface NewTicket {
  /** Our reference, stored in a ticket field the PSA can be searched by (`alertdesk:<alert id>`). */
  ref: string;
  summary: string;
  description: string;
  companyId: string;
  priority: AlertPriority;
}

/** One PSA's API, as the ticket lifecycle uses it (one file per PSA). */
export interface PsaAdapter {
  /** Throws a PsaError when the PSA cannot be reached or refuses the credentials. */
  test(): Promise<void>;
  listCompanies(search: string | undefined): Promise<PsaCompany[]>;
  createTicket(t: NewTicket): Promise<TicketRef>;
  /** The ticket carrying our reference, if the PSA has one (after an answer was lost). */
  findTicket(ref: string): Promise<TicketRef | null>;
  addNote(ticketId: string, text: string): Promise<void>;
  closeTicket(ticketId: string, note: string): Promise<void>;
  reopenTicket(ticketId: string, note: string): Promise<void>;
  /** Whether the ticket is closed now (inbound notices are re-read, never trusted). */
  isClosed(ticketId: string): Promise<boolean>;
  /** Asks the PSA to tell `url` of ticket changes (ConnectWise's callback); a no-op where it is set up in the PSA. */
  registerInbound(url: string): Promise<void>;
  /** Of these tickets, those closed (changed since `since`, when given): for PSAs that are polled (Autotask). */
  closedAmong?(ids: string[], since: string | null): Promise<string[]>;
}

/** What an adapter is made of: settings (secrets included, decrypted) and the guarded HTTP call. */
export interface AdapterInput {
  type: PsaType;
  settings: Record<string, unknown>;
  call: <T>(req: PsaRequest) => Promise<T>;
  /** Autotask: where a user's zone is looked up (AUTOTASK_ZONE_LOOKUP_URL). */
  zoneLookupUrl?: string;
}

export const ticketRef = (alertId: string) => `alertdesk:${alertId}`;
