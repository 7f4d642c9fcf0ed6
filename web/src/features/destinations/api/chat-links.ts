import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChatLinkInfo, ChatLinkResult } from '../../../../../contract/destinations.ts';
import { api } from '../../../lib/api.ts';

const path = (token: string) => `/chat-links/${encodeURIComponent(token)}`;
const key = (token: string) => ['chatLink', token] as const;

/** What a chat post's one-time link does (opening it changes nothing: link previews follow links). */
export const useChatLink = (token: string) => useQuery({ queryKey: key(token), queryFn: ({ signal }) => api<ChatLinkInfo>(path(token), { signal }), staleTime: Infinity, retry: false });

/** Uses the link as the signed-in member: acknowledges or resolves its alert, or links the Slack user. */
export function useUseChatLink(token: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<ChatLinkResult>(path(token), { method: 'POST', body: {} }),
    onSuccess: () => qc.invalidateQueries({ queryKey: key(token) }),
  });
}
