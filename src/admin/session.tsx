import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Me, Permission } from '../features/staff/index.ts';
import { ApiError, get } from './api.ts';

export const ME_KEY = ['me'] as const;

/** The signed-in staff member (null when nobody is), as the server says. */
export function useMe() {
  return useQuery({
    queryKey: ME_KEY,
    queryFn: async () => {
      try {
        return await get<Me>('/api/admin/auth/session');
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    retry: false,
    staleTime: 60_000,
  });
}

/**
 * Whether the signed-in staff member has `permission` (for some site): what a screen offers. The
 * server decides each request.
 */
export function useCan(permission: Permission): boolean {
  return useMe().data?.permissions.includes(permission) ?? false;
}

/**
 * Puts a fresh answer of who is signed in in place; signed out (null), every other cached answer
 * goes too (the next person must not see the last one's lists). The `me` query itself stays in
 * the cache: its observers would keep the old answer of a removed query.
 */
export function useSetMe() {
  const client = useQueryClient();
  return (me: Me | null) => {
    if (me === null) client.removeQueries({ predicate: (q) => q.queryKey[0] !== ME_KEY[0] });
    client.setQueryData(ME_KEY, me);
  };
}

/** Said once on the sign-in page after signing out (the page is reached by a redirect). */
export const signOutNotice = { pending: false };
