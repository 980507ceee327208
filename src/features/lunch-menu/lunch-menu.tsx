import { lazy, Suspense, useState } from 'react';
import { useT } from '../../i18n/react.tsx';
import { useHydrated } from '../../render/use-hydrated.ts';
import styles from './lunch-menu.module.css';
import { MenuView } from './menu-view.tsx';
import type { MenuWeek } from './values.ts';

/** The editor: a chunk of its own (React Aria's menus, tabs and dialogs), fetched on 'Edit'. */
const MenuEditor = lazy(() => import('./menu-editor.tsx').then((m) => ({ default: m.MenuEditor })));

export interface LunchMenuProps {
  weeks: MenuWeek[];
  /** The saved menu shown, or null for the default one. */
  menuId: string | null;
}

/**
 * The weekly lunch menu (spec shop-and-widgets §2, §4): the weeks as the server rendered them
 * (usable without script: links, and the print stylesheet gives one A4 page a week), and once
 * hydrated, 'Edit' and 'Print'. Edit mode works on a copy; saving makes a new menu and reloads
 * the page with its `menuId`.
 */
export function LunchMenu(props: LunchMenuProps) {
  const t = useT();
  const hydrated = useHydrated();
  const [editing, setEditing] = useState(false);

  if (editing) {
    return (
      <Suspense fallback={<MenuView weeks={props.weeks} />}>
        <MenuEditor weeks={props.weeks} onCancel={() => setEditing(false)} />
      </Suspense>
    );
  }
  return (
    // A floating bar (the food-service sites' overlay) keeps clear of the menu.
    <div className={styles.menu} data-lunch-menu="" data-keep-clear="">
      {hydrated ? (
        <div className={styles.toolbar}>
          <button type="button" className={styles.primary} onClick={() => setEditing(true)}>
            {t('lunchMenu.edit')}
          </button>
          <button type="button" className={styles.secondary} onClick={() => window.print()}>
            {t('lunchMenu.print')}
          </button>
        </div>
      ) : null}
      <MenuView weeks={props.weeks} />
    </div>
  );
}
