/**
 * Mutual exclusion per key within this process: `acquire(keys)` resolves once every key is free and held by the caller,
 * with the function that frees them. Keys are taken in sorted order, all at once, so two callers wanting overlapping
 * sets never wait for each other in a circle. Waiters are served in arrival order per key.
 */
export class KeyedLock {
  private tails = new Map<string, Promise<void>>();

  async acquire(keys: Iterable<string>): Promise<() => void> {
    const wanted = [...new Set(keys)].sort();
    const frees: Array<() => void> = [];
    const waits: Array<Promise<void>> = [];
    for (const key of wanted) {
      let free!: () => void;
      const mine = new Promise<void>((resolve) => (free = resolve));
      const before = this.tails.get(key);
      const tail = before ? before.then(() => mine) : mine;
      this.tails.set(key, tail);
      if (before) waits.push(before);
      frees.push(() => {
        free();
        // The last holder of a key leaves nothing behind.
        if (this.tails.get(key) === tail) this.tails.delete(key);
      });
    }
    await Promise.all(waits);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const f of frees) f();
    };
  }

  /** Keys held or waited for (for tests). */
  get size() {
    return this.tails.size;
  }
}
