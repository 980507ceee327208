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

/** Longest wait for the first paint before the islands start anyway. */
const FIRST_PAINT_WAIT_MS = 3_000;

/**
 * Runs `run` once the page has had its first contentful paint (decision 067), so no island's
 * code is fetched or run while the first paint still waits for the style sheet and the first
 * image: on a slow connection those requests would share the bandwidth. Where the browser does
 * not report paints, after the second animation frame (the first frame has been drawn by then).
 * A page that has painted no content by the time limit (nothing to paint yet, or opened in a
 * background tab, which paints only when shown) starts them then.
 */
export function afterFirstPaint(run: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    observer?.disconnect();
    clearTimeout(timer);
    run();
  };
  const timer = setTimeout(once, FIRST_PAINT_WAIT_MS);
  let observer: PerformanceObserver | undefined;
  if (globalThis.PerformanceObserver?.supportedEntryTypes?.includes('paint')) {
    observer = new PerformanceObserver((list) => {
      if (list.getEntries().some((e) => e.name === 'first-contentful-paint')) once();
    });
    observer.observe({ type: 'paint', buffered: true });
  } else {
    requestAnimationFrame(() => requestAnimationFrame(once));
  }
}
