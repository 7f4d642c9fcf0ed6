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

/** A note for a ticket: its text and our reference (`noteRef`), by which a retry finds it in the PSA. */
export interface TicketNote {
  text: string;
  ref: string;
}

/** One PSA's API, as the ticket lifecycle uses it (one file per PSA). */
export interface PsaAdapter {
  /** Throws a PsaError when the PSA cannot be reached or refuses the credentials. */
  test(): Promise<void>;
  listCompanies(search: string | undefined): Promise<PsaCompany[]>;
  createTicket(t: NewTicket): Promise<TicketRef>;
  /** The ticket carrying our reference, if the PSA has one (after an answer was lost). */
  findTicket(ref: string): Promise<TicketRef | null>;
  /** Adds a note carrying our reference (its own last line, where a person reading the ticket sees where it came from). */
  addNote(ticketId: string, note: TicketNote): Promise<void>;
  /** Whether one of the ticket's notes carries this reference: an earlier try's note the PSA stored, its answer lost. */
  hasNote(ticketId: string, ref: string): Promise<boolean>;
  /** Moves the ticket to the connection's closed status, or back to its new status. */
  setStatus(ticketId: string, to: 'open' | 'closed'): Promise<void>;
  /** Whether the ticket is closed now (inbound notices are re-read, never trusted; a status change is re-read before it is sent again). */
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

/** A note's reference: the id of the action that sends it (one per note we mean to add). */
export const noteRef = (actionId: string) => `Alertdesk ref ${actionId}`;

/** The note as sent: its text, then our reference on a line of its own. */
export const noteBody = (note: TicketNote) => `${note.text}\n\n${note.ref}`;
