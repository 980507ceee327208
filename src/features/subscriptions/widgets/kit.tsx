import { useEffect, useRef, useState } from 'react';
import styles from './subscriptions.module.css';

export { styles };

/** A stored flag (local storage); reading or writing it may fail (private mode): then unset. */
export const dismissal = {
  isSet(key: string): boolean {
    try {
      return window.localStorage.getItem(key) === '1';
    } catch {
      return false;
    }
  },
  set(key: string): void {
    try {
      window.localStorage.setItem(key, '1');
    } catch {
      // Not remembered; the modal may show again.
    }
  },
};

/**
 * Opens a modal when the URL hash is `hash` (spec §2), unless its dismissal flag is set (spec §4).
 * On page load the spec's other condition holds too: more than 2 entries in the history, so a
 * visitor who has just arrived with the hash in the address is not greeted by it; a hash the
 * visitor sets later (an in-page link) is their own request (decision 038).
 */
export function useHashOpen(hash: string, dismissKey: string, open: () => void): void {
  const openRef = useRef(open);
  openRef.current = open;
  useEffect(() => {
    const matches = () => window.location.hash.slice(1) === hash;
    if (matches() && !dismissal.isSet(dismissKey) && window.history.length > 2) openRef.current();
    const onHash = () => {
      if (matches() && !dismissal.isSet(dismissKey)) openRef.current();
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [hash, dismissKey]);
}

/** The element that has the focus, or null when nothing has (the body). */
function focusedElement(): HTMLElement | null {
  const active = document.activeElement;
  return active instanceof HTMLElement && active !== document.body ? active : null;
}

/**
 * The state of a modal that opens on its hash (`useHashOpen`) or by its button: open, the
 * thank-you state, and closing, which sets the dismissal flag, takes the hash out of the address
 * and gives the focus back (decision 106): to the element that opened it (its button, or the link
 * that set the hash), or to wherever the focus was when the hash changed; when nothing had the
 * focus (the hash came with the page), to the modal's button.
 */
export function useHashModal(hash: string, dismissKey: string) {
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const byHash = useRef(false);
  const returnTo = useRef<HTMLElement | null>(null);
  const show = (fromHash: boolean) => {
    byHash.current = fromHash;
    returnTo.current = fromHash ? focusedElement() : null;
    setDone(false);
    setOpen(true);
  };
  useHashOpen(hash, dismissKey, () => show(true));
  const close = () => {
    dismissal.set(dismissKey);
    setOpen(false);
    if (window.location.hash.slice(1) === hash) {
      window.history.replaceState(null, '', window.location.pathname + window.location.search);
    }
    if (byHash.current) {
      // After the dialog's own focus restore, which knows only what had the focus as it mounted
      // (the body, when the hash came with the page).
      const back = returnTo.current;
      byHash.current = false;
      returnTo.current = null;
      requestAnimationFrame(() => (back?.isConnected ? back : button.current)?.focus());
    }
  };
  return {
    open,
    done,
    finished: () => setDone(true),
    close,
    /** Props of the button that opens the modal. */
    opener: {
      ref: button,
      type: 'button' as const,
      className: styles.open,
      'aria-haspopup': 'dialog' as const,
      onClick: () => show(false),
    },
  };
}
