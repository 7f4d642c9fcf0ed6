import { randomUUID } from 'node:crypto';
import type { AlertChange, ReadStamp, StreamPosition } from '../../../contract/alerts.ts';
import type { AlertBus } from '../../events/alert-bus.ts';

/**
 * Issue 33: what lets a dashboard ask for its list while its live stream is still subscribing, without missing a change
 * made in between. This instance counts every alert change it hears (of any tenant, from any instance: the bus's
 * `onAlertChange`) and remembers each tenant's latest. An answer read here carries a stamp taken before its query
 * (`stamp()`); the stream's `ready` carries the tenant's position (`position()`). The browser compares the two
 * (contract/read-stamp.ts): the same instance compares counts, exactly; two instances compare
 * clocks, with a margin. One small entry per tenant that changed since this instance started.
 */
export class AlertReadStamps {
  readonly instance = randomUUID();
  private seq = 0;
  // Since when every change has been heard: the start, or the bus's reconnection (changes sent while deaf are lost).
  private since = Date.now();
  private sinceSeq = 0;
  private latest = new Map<string, { seq: number; at: number }>();
  /** When each change was heard (the bus hands every listener the same object; watchers hear it before streams do). */
  private heardAt = new WeakMap<AlertChange, { seq: number; at: number }>();

  constructor(bus: AlertBus) {
    bus.onAlertChange((tenantId, change) => {
      const heard = { seq: ++this.seq, at: Date.now() };
      this.latest.set(tenantId, heard);
      this.heardAt.set(change, heard);
    });
    // The bus hears null when it may have missed notices (its listener reconnected): nothing before now is known.
    bus.onInvalidateRouting((tenantIds) => {
      if (tenantIds !== null) return;
      this.sinceSeq = ++this.seq;
      this.since = Date.now();
    });
  }

  /** Taken just before an answer's query: a change heard after it may be missing from the answer. */
  stamp(): ReadStamp {
    return { instance: this.instance, seq: this.seq, at: Date.now() };
  }

  /**
   * When this change was heard, for the stream's event: an answer stamped at or after it already counts it (the stat
   * cards then leave it out, contract/read-stamp.ts `answerCounts`).
   */
  heard(change: AlertChange): ReadStamp | undefined {
    const h = this.heardAt.get(change);
    return h && { instance: this.instance, seq: h.seq, at: h.at };
  }

  /** Taken as a stream subscribes: what had been heard of the tenant until then. */
  position(tenantId: string): StreamPosition {
    const last = this.latest.get(tenantId);
    return { instance: this.instance, since: this.since, sinceSeq: this.sinceSeq, seq: last?.seq ?? 0, at: last?.at ?? 0 };
  }
}
