import { useEffect, useId, useRef, useState } from 'react';
import { useT } from '../../i18n/react.tsx';
import styles from './menu-toggle.module.css';

export interface MenuToggleProps {
  links: { href: string; label: string; lang?: string }[];
}

/**
 * The header's menu as a disclosure: on small screens the links fold behind a button that opens
 * them; Escape or a click outside closes the menu and Escape returns focus to the button.
 */
export function MenuToggle({ links }: MenuToggleProps) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  return (
    <nav ref={root} className={styles.nav} aria-label={t('layout.mainNavigation')}>
      <button
        ref={button}
        type="button"
        className={styles.toggle}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((v) => !v)}
      >
        <span className={styles.burger} aria-hidden="true" />
        <span>{open ? t('menu.close') : t('menu.label')}</span>
      </button>
      <ul id={panelId} className={open ? `${styles.panel} ${styles.open}` : styles.panel}>
        {links.map((link) => (
          <li key={link.href}>
            <a href={link.href} lang={link.lang} hrefLang={link.lang}>
              {link.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
