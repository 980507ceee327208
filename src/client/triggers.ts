/** When an island hydrates: at once, when the browser is idle, or when it scrolls into view. */
export type Trigger = (element: HTMLElement, run: () => void) => void;

const load: Trigger = (_element, run) => run();

const idle: Trigger = (_element, run) => {
  if ('requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: 2_000 });
  else setTimeout(run, 200);
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
