import type { SetURLSearchParams } from 'react-router';

// What pages that keep their view in the address share (the dashboard's list, the alert history).

/** A parameter that must be one of `values`; anything else reads as absent (the default). */
export const oneOf = <T extends string>(values: readonly T[], v: string | null): T | undefined => (v && (values as readonly string[]).includes(v) ? (v as T) : undefined);

/** A free-text parameter, trimmed and cut to `max` characters; empty reads as absent. */
export const text = (v: string | null, max: number) => (v && v.trim() ? v.trim().slice(0, max) : undefined);

/**
 * Sets one parameter, leaving out defaults so the address stays short: nothing, `all`, page 1, and whatever
 * `isDefault` says (a page's own defaults).
 */
export function putParam(p: URLSearchParams, key: string, value: string | null | undefined, isDefault: (key: string, value: string) => boolean = () => false) {
  if (!value || value === 'all' || (key === 'page' && value === '1') || isDefault(key, value)) p.delete(key);
  else p.set(key, value);
}

/**
 * Changes a copy of the address's parameters, replacing the history entry or adding one. The router hands a change
 * the parameters of its last render: two changes before the next render (a date typed into From, then To, on a slow
 * machine) would each start from that same old address, and the second would undo the first. So a change made
 * before the router rendered the previous one (its parameters still those the previous one started from) starts
 * from the previous one's result instead.
 */
export const paramsUpdater = (setParams: SetURLSearchParams) => {
  let last: { from: string; to: URLSearchParams } | null = null;
  return (change: (p: URLSearchParams) => void, replace: boolean) =>
    setParams(
      (p) => {
        const current = p.toString();
        const next = new URLSearchParams(last && last.from === current ? last.to : p);
        change(next);
        last = { from: current, to: next };
        return next;
      },
      { replace },
    );
};
