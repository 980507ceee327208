import { type RefObject, useCallback, useEffect, useMemo, useState } from 'react';

/** How a panel came open: hover closes it on leave, a click keeps it until dismissed. */
export type OpenedBy = 'hover' | 'click';

export interface Disclosures {
  openKey: string | null;
  open(key: string, by: OpenedBy): void;
  /** Closes the panel; with a key, only when that one is open. */
  close(key?: string): void;
  /** A click on a toggle: opens, closes, or keeps a panel that hover opened. */
  activate(key: string): void;
  /** The pointer left an item: closes its panel if hover opened it. */
  leave(key: string): void;
}

/**
 * One open panel at a time among the header's menus (tabs, language menu). Items carry
 * `data-disclosure-item={key}` and their toggles `data-disclosure={key}` inside `root`; Escape
 * closes the open one (and returns focus to its toggle when focus was inside), and so does a
 * press outside it.
 */
export function useDisclosures(root: RefObject<HTMLElement | null>): Disclosures {
  const [state, setState] = useState<{ key: string; by: OpenedBy } | null>(null);
  const openKey = state?.key ?? null;

  useEffect(() => {
    if (openKey === null) return;
    const item = () => root.current?.querySelector(`[data-disclosure-item="${openKey}"]`);
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      const toggle = root.current?.querySelector<HTMLElement>(`[data-disclosure="${openKey}"]`);
      if (item()?.contains(document.activeElement)) toggle?.focus();
      setState(null);
    };
    const onPointer = (event: PointerEvent) => {
      if (!item()?.contains(event.target as Node)) setState(null);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [openKey, root]);

  const open = useCallback((key: string, by: OpenedBy) => {
    setState((s) => (s?.key === key && by === 'hover' ? s : { key, by }));
  }, []);
  const close = useCallback((key?: string) => {
    setState((s) => (key === undefined || s?.key === key ? null : s));
  }, []);
  const activate = useCallback((key: string) => {
    setState((s) => {
      if (s?.key !== key) return { key, by: 'click' };
      return s.by === 'click' ? null : { key, by: 'click' };
    });
  }, []);
  const leave = useCallback((key: string) => {
    setState((s) => (s?.key === key && s.by === 'hover' ? null : s));
  }, []);

  return useMemo(
    () => ({ openKey, open, close, activate, leave }),
    [openKey, open, close, activate, leave],
  );
}
