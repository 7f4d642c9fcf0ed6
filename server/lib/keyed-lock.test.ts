import { describe, expect, it } from 'vitest';
import { KeyedLock } from './keyed-lock.ts';

const tick = () => new Promise((r) => setImmediate(r));

describe('KeyedLock', () => {
  it('lets one holder of a key at a time, in arrival order, and leaves nothing behind', async () => {
    const lock = new KeyedLock();
    const order: string[] = [];
    const first = await lock.acquire(['a']);
    const second = lock.acquire(['a']).then((free) => (order.push('second'), free));
    const third = lock.acquire(['a']).then((free) => (order.push('third'), free));
    await tick();
    expect(order).toEqual([]);
    first();
    (await second)();
    (await third)();
    expect(order).toEqual(['second', 'third']);
    expect(lock.size).toBe(0);
  });

  it('does not hold up other keys, and takes overlapping sets without a deadlock', async () => {
    const lock = new KeyedLock();
    const ab = await lock.acquire(['b', 'a']);
    let cGot = false;
    const c = lock.acquire(['c']).then((free) => ((cGot = true), free));
    const ba = lock.acquire(['a', 'b']);
    const bc = lock.acquire(['c', 'b']);
    await tick();
    expect(cGot).toBe(true);
    (await c)();
    ab();
    (await ba)();
    (await bc)();
    expect(lock.size).toBe(0);
  });

  it('frees once, whatever the caller does', async () => {
    const lock = new KeyedLock();
    const free = await lock.acquire(['x']);
    free();
    free();
    const again = await lock.acquire(['x']);
    again();
    expect(lock.size).toBe(0);
  });
});
