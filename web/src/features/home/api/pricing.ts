import { useEffect, useState } from 'react';
import type { PricingPlan, PricingSettings } from '../../../../../contract/pricing.ts';
import { RETRY_DELAY_MS, retryLoad } from '../../../lib/api.ts';
import { fetchPricingSettings, fetchPublicPlans } from '../../../lib/pricing-api.ts';

/** A finished load: its data, or that it failed. */
export type Loaded<T> = { ok: true; data: T } | { ok: false };

/** One load, tried once more after RETRY_DELAY_MS when that may help (the app's queries do the same: retryLoad). */
async function load<T>(fetcher: () => Promise<T>): Promise<Loaded<T>> {
  for (let failures = 0; ; failures++) {
    try {
      return { ok: true, data: await fetcher() };
    } catch (error) {
      if (!retryLoad(failures, error)) return { ok: false };
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
    }
  }
}

let requests: { plans: Promise<Loaded<PricingPlan[]>>; settings: Promise<Loaded<PricingSettings>> } | null = null;

/**
 * The pricing section's two requests (public plans, pricing settings), made once per page load. The home page's
 * entry (home-main.tsx) starts them before React renders anything, together: no waterfall, and no query library on a
 * page that only reads two lists once (issue 14's budget).
 */
export function pricingRequests() {
  requests ??= { plans: load(fetchPublicPlans), settings: load(fetchPricingSettings) };
  return requests;
}

/** What a request came to, once it has: undefined while it is under way. */
export function useLoaded<T>(request: Promise<Loaded<T>>): Loaded<T> | undefined {
  const [result, setResult] = useState<Loaded<T>>();
  useEffect(() => {
    let current = true;
    void request.then((r) => current && setResult(r));
    return () => {
      current = false;
    };
  }, [request]);
  return result;
}
