import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * The header's mobile quick-search panel: open or closed, and a round that grows at every close
 * so that a new key gives a fresh, empty box. Opened, focus goes into the panel's box; Escape or
 * a press outside the panel and its toggle closes it (Escape gives the focus back to the toggle).
 */
export function useQuickSearchPanel(panelId: string) {
  const toggle = useRef<HTMLButtonElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const [round, setRound] = useState(0);
  const close = useCallback(() => setOpen(false), []);

  // However the panel closes, its box and results are cleared.
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !open) setRound((n) => n + 1);
    wasOpen.current = open;
  }, [open]);

  useEffect(() => {
    if (!open) return;
    // By the markup: the box may not have hydrated yet (its code has only just arrived).
    (
      input.current ?? document.getElementById(panelId)?.querySelector<HTMLInputElement>('input')
    )?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      close();
      toggle.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      const inside =
        document.getElementById(panelId)?.contains(target) || toggle.current?.contains(target);
      if (!inside) close();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open, panelId, close]);

  return { open, setOpen, close, round, toggle, input };
}
