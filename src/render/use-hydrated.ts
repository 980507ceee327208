import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False in the server's HTML and while an island hydrates, true once it runs: what works without
 * script (a submit button, both sides of a card, a GET form) shows until then, and what needs
 * script (step buttons, in-place actions) after. React renders the island again right after
 * hydration with the browser's answer; a component first mounted in the browser gets true at once.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
