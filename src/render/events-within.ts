import { type RefObject, useEffect, useRef } from 'react';

/**
 * Hears events of `type` whose target is inside `ref`'s element, while `enabled`, on the document
 * in the capture phase: React holds back the events pressed on markup it has not hydrated (and a
 * deferred part that stays the server's never is), so a handler of the island would not hear a key
 * pressed on such a part's link, or a swipe that starts on it (decision 161).
 */
export function useEventsWithin<K extends keyof DocumentEventMap>(
  ref: RefObject<Element | null>,
  type: K,
  handler: (event: DocumentEventMap[K], target: Element) => void,
  enabled = true,
): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    const element = ref.current;
    if (!enabled || !element) return;
    const listener = (event: DocumentEventMap[K]) => {
      const target = event.target;
      if (target instanceof Element && element.contains(target)) latest.current(event, target);
    };
    document.addEventListener(type, listener, true);
    return () => document.removeEventListener(type, listener, true);
  }, [ref, type, enabled]);
}
