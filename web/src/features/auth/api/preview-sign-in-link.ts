import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SignInLinkPreview } from '../../../../../contract/auth.ts';
import { api } from '../../../lib/api.ts';

// Kept here rather than in lib/query-keys.ts: only this page reads it, and nothing invalidates it by prefix.
const signInLinkKey = (token: string) => ['signInLink', token] as const;

/** Whom a sign-in link is for, read without using it (a POST only so the token stays out of URLs and logs). */
export const fetchSignInLink = (token: string, signal?: AbortSignal) => api<SignInLinkPreview>('/auth/sign-in-link/preview', { body: { token }, signal });

export const signInLinkQuery = (token: string) =>
  queryOptions({
    queryKey: signInLinkKey(token),
    queryFn: ({ signal }) => fetchSignInLink(token, signal),
    staleTime: Infinity,
    // Without a token there is nothing to ask: the page says the link is not valid.
    enabled: token.length > 0,
  });

export const useSignInLinkPreview = (token: string) => useQuery(signInLinkQuery(token));
