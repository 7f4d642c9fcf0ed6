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

/** Changes a copy of the address's parameters, replacing the history entry or adding one. */
export const paramsUpdater = (setParams: SetURLSearchParams) => (change: (p: URLSearchParams) => void, replace: boolean) =>
  setParams(
    (p) => {
      const next = new URLSearchParams(p);
      change(next);
      return next;
    },
    { replace },
  );
