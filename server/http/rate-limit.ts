/**
 * A fixed-window counter kept in memory, per key. Good for one instance; limits are per instance when several run.
 */
export class WindowCounter {
  private hits = new Map<string, { count: number; resetAt: number }>();
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Seconds until the key may try again, or 0 when it is under its limit. */
  blockedFor(key: string, at = Date.now()): number {
    const h = this.hits.get(key);
    if (!h || h.resetAt <= at) return 0;
    return h.count >= this.limit ? (h.resetAt - at) / 1000 : 0;
  }

  hit(key: string, at = Date.now()): void {
    const h = this.hits.get(key);
    if (!h || h.resetAt <= at) {
      this.hits.set(key, { count: 1, resetAt: at + this.windowMs });
      if (this.hits.size > 100_000) this.sweep(at);
    } else h.count++;
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  private sweep(at: number) {
    for (const [k, h] of this.hits) if (h.resetAt <= at) this.hits.delete(k);
  }
}
