import { isDatabaseUnavailable } from '../../db/database.ts';

/** `list` grouped by `key`, in first-seen order. */
export function groupBy<T, K>(list: T[], key: (item: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const item of list) {
    const k = key(item);
    const group = out.get(k);
    if (group) group.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/**
 * Runs a sweep's batch (`batch(limit, locked)`: returns how many items it took, telling `locked` which it locked). A
 * batch that throws for another reason than the database being away is taken again one item at a time, as many as it
 * had locked: one alert that cannot be escalated (a stored policy or schedule the engine chokes on) must not hold up
 * every other alert's paging, batch after batch. The item that fails alone is given up (`giveUp`).
 */
export async function isolating<T>(
  limit: number,
  batch: (limit: number, locked: (items: T[]) => void) => Promise<number>,
  giveUp: (item: T, err: unknown) => Promise<void>,
): Promise<number> {
  let locked: T[] = [];
  try {
    return await batch(limit, (items) => (locked = items));
  } catch (err) {
    if (isDatabaseUnavailable(err) || locked.length === 0) throw err;
    let took = 0;
    for (let i = 0; i < locked.length; i++) {
      let one: T[] = [];
      try {
        const n = await batch(1, (items) => (one = items));
        if (n === 0) break;
        took += n;
      } catch (e) {
        if (isDatabaseUnavailable(e) || one.length === 0) throw e;
        await giveUp(one[0], e);
        took++;
      }
    }
    return took;
  }
}
