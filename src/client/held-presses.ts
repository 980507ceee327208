/**
 * Presses that land on an island before it hydrates (decision 070).
 *
 * A server-rendered island works without script where it can: its links go, its forms post. Its
 * `type="button"` buttons (a quantity's − and +, a menu's toggle) do nothing until the island's
 * code has arrived and hydrated, and a press in that window was lost: the visitor saw nothing
 * happen and had to press again. Such presses are kept here and made again, in order, once the
 * island has hydrated. React replays a press itself from the moment hydration starts
 * (`hydrateRoot`), so the island stops keeping them then.
 */
export interface HeldPresses {
  /** Hydration starts: React takes the presses from here on. */
  stop(): void;
  /** The island has hydrated: makes the kept presses again, one task each. */
  replay(): Promise<void>;
}

export function holdPresses(island: HTMLElement): HeldPresses {
  const held: HTMLButtonElement[] = [];
  const keep = (event: Event) => {
    const target = event.target;
    if (!(target instanceof Element)) return;
    const button = target.closest('button');
    if (!button || !island.contains(button) || button.type !== 'button' || button.disabled) return;
    // A toggle pressed twice while nothing happened was meant to open once, not open and close.
    if (button.hasAttribute('aria-expanded') && held.includes(button)) return;
    held.push(button);
  };
  island.addEventListener('click', keep, true);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    island.removeEventListener('click', keep, true);
  };
  return {
    stop,
    async replay() {
      stop();
      for (const button of held.splice(0)) {
        // Hydration keeps the server's elements; one that is gone or disabled by now is skipped.
        if (!button.isConnected || button.disabled) continue;
        button.click();
        // Each press in a task of its own, so the next one sees the state the last one set.
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    },
  };
}
