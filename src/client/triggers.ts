/** When an island hydrates: at once, when the browser is idle, or when it scrolls into view. */
export type Trigger = (element: HTMLElement, run: () => void) => void;

const load: Trigger = (_element, run) => run();

/** What shows that the visitor is about to use an island: it hydrates then, not later. */
const INTENT_EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown'] as const;

/**
 * When the browser is idle (at the latest after 2 s), or at once when the visitor points at,
 * touches or focuses into the island before that: the page's first render and its load-time
 * islands go first, and an island about to be used does not wait for the idle time.
 */
const idle: Trigger = (element, run) => {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    for (const type of INTENT_EVENTS) element.removeEventListener(type, once, true);
    run();
  };
  for (const type of INTENT_EVENTS)
    element.addEventListener(type, once, { capture: true, passive: true });
  if ('requestIdleCallback' in window) window.requestIdleCallback(once, { timeout: 2_000 });
  else setTimeout(once, 200);
};

const visible: Trigger = (element, run) => {
  if (!('IntersectionObserver' in window)) return run();
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        observer.disconnect();
        run();
      }
    },
    { rootMargin: '200px' },
  );
  // The wrapper is `display: contents` and has no box; watch its children instead.
  const targets = element.children.length ? Array.from(element.children) : [element];
  for (const target of targets) observer.observe(target);
};

export const triggers: Record<string, Trigger> = { load, idle, visible };
