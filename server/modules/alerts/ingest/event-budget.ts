/**
 * Events one integration key may send per fixed window, in memory (per instance when several run). A request is
 * admitted only when all of its events fit in what is left of the window: an Alertmanager group of 1,000 alerts costs
 * 1,000, and is refused whole (nothing counted) when they do not fit.
 */
export class EventBudget {
  private windows = new Map<string, { used: number; resetAt: number }>();
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Takes `events` from the key's budget and answers 0, or takes nothing and answers the seconds to wait. */
  take(key: string, events: number, at = Date.now()): number {
    let w = this.windows.get(key);
    if (!w || w.resetAt <= at) {
      if (this.windows.size >= 100_000) this.sweep(at);
      w = { used: 0, resetAt: at + this.windowMs };
      this.windows.set(key, w);
    }
    if (w.used + events > this.limit) return Math.max((w.resetAt - at) / 1000, 0.001);
    w.used += events;
    return 0;
  }

  private sweep(at: number) {
    for (const [k, w] of this.windows) if (w.resetAt <= at) this.windows.delete(k);
  }
}
