import { type FocusEvent, type KeyboardEvent, type PointerEvent, useId } from 'react';
import { useLang, useT } from '../../i18n/react.tsx';
import { Icon } from './icons.tsx';
import { moveIndex } from './keyboard.ts';
import { ChildLinks, External, SectionTeaser, ShowMoreLink } from './nav-links.tsx';
import { isCurrentPath, isInSection } from './nav-paths.ts';
import type { DesktopNav, Tab } from './schemas.ts';
import styles from './site-header.module.css';
import type { Disclosures } from './use-disclosures.ts';

type PanelKind = 'mega' | 'dropdown';

/** Focus the first link of a panel once React has shown it. */
function focusFirstLink(panelId: string) {
  requestAnimationFrame(() => document.getElementById(panelId)?.querySelector('a')?.focus());
}

/**
 * A row of tabs in the disclosure navigation pattern: each tab's label is a link, and a tab with
 * children has its own toggle button for its panel (a mega menu or a simple dropdown). Hover opens
 * a panel too. Left and Right move between the row's toggles, Down enters an open panel, Up and
 * Down move inside it; Escape is handled by the disclosure group.
 */
export function TabRow(props: {
  tabs: Tab[];
  row: 'top' | 'bottom';
  panel: PanelKind;
  label: string;
  currentPath: string;
  group: Disclosures;
  className?: string;
}) {
  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const target = event.target as HTMLElement;
    const list = event.currentTarget;
    const toggles = Array.from(
      list.querySelectorAll<HTMLElement>(':scope > li > [data-disclosure]'),
    );
    const index = toggles.indexOf(target);
    if (index >= 0) {
      const next = moveIndex(index, toggles.length, event.key, 'horizontal');
      if (next !== undefined) {
        event.preventDefault();
        toggles[next]?.focus();
        return;
      }
      if (event.key === 'ArrowDown') {
        event.preventDefault();
        const key = target.dataset.disclosure ?? '';
        props.group.open(key, 'click');
        focusFirstLink(target.getAttribute('aria-controls') ?? '');
      }
      return;
    }
    const panel = target.closest<HTMLElement>('[data-panel]');
    if (!panel) return;
    const links = Array.from(panel.querySelectorAll<HTMLElement>('a'));
    const next = moveIndex(links.indexOf(target), links.length, event.key, 'vertical');
    if (next !== undefined) {
      event.preventDefault();
      links[next]?.focus();
    }
  };

  return (
    <nav aria-label={props.label} className={props.className}>
      <ul className={styles.tabs} onKeyDown={onKeyDown}>
        {props.tabs.map((tab, index) => (
          <TabItem
            key={`${tab.link}-${tab.label}`}
            tab={tab}
            itemKey={`${props.row}-${index}`}
            panel={props.panel}
            row={props.row}
            currentPath={props.currentPath}
            group={props.group}
          />
        ))}
      </ul>
    </nav>
  );
}

function TabItem(props: {
  tab: Tab;
  itemKey: string;
  panel: PanelKind;
  row: 'top' | 'bottom';
  currentPath: string;
  group: Disclosures;
}) {
  const { tab, itemKey, group } = props;
  const t = useT();
  const panelId = useId();
  const hasChildren = tab.children.length > 0;
  const open = group.openKey === itemKey;
  const current = isCurrentPath(tab.link, props.currentPath);
  const inSection = isInSection(tab.link, props.currentPath);

  const onPointerEnter = (event: PointerEvent) => {
    if (hasChildren && event.pointerType === 'mouse') group.open(itemKey, 'hover');
  };
  const onPointerLeave = (event: PointerEvent) => {
    if (event.pointerType === 'mouse') group.leave(itemKey);
  };
  const onBlur = (event: FocusEvent<HTMLLIElement>) => {
    const next = event.relatedTarget as Node | null;
    if (next && !event.currentTarget.contains(next)) group.close(itemKey);
  };

  const className = [
    styles.tab,
    props.panel === 'dropdown' ? styles.hasDropdown : '',
    inSection ? styles.active : '',
    tab.showBorder && props.row === 'top' ? styles.bordered : '',
  ].join(' ');

  return (
    <li
      className={className}
      data-disclosure-item={itemKey}
      data-open={open || undefined}
      onPointerEnter={onPointerEnter}
      onPointerLeave={onPointerLeave}
      onBlur={onBlur}
    >
      <a className={styles.tabLink} href={tab.link} aria-current={current ? 'page' : undefined}>
        {tab.icon ? <Icon name={tab.icon} size={20} /> : null}
        <span>{tab.label}</span>
        {tab.isExternal ? <External /> : null}
      </a>
      {hasChildren ? (
        <>
          <button
            type="button"
            className={styles.tabToggle}
            data-disclosure={itemKey}
            aria-expanded={open}
            aria-controls={panelId}
            aria-label={t('header.showSubmenu', { label: tab.label })}
            onClick={() => group.activate(itemKey)}
          >
            <Icon name="chevron" size={18} className={styles.chevron} />
          </button>
          {props.panel === 'mega' ? (
            <MegaPanel id={panelId} tab={tab} open={open} currentPath={props.currentPath} />
          ) : (
            <div id={panelId} className={styles.dropdown} data-panel hidden={!open}>
              <ChildLinks
                links={tab.children}
                currentPath={props.currentPath}
                className={styles.childLinks}
              />
            </div>
          )}
        </>
      ) : null}
    </li>
  );
}

/** A tab's mega menu: its child links, its teaser picture and a link to the whole section. */
function MegaPanel(props: { id: string; tab: Tab; open: boolean; currentPath: string }) {
  const { tab } = props;
  return (
    <div id={props.id} className={styles.mega} data-panel hidden={!props.open}>
      <div className={`container ${styles.megaInner}`}>
        <div className={styles.megaMain}>
          <p className={styles.megaTitle} aria-hidden="true">
            {tab.label}
          </p>
          <ChildLinks
            links={tab.children}
            currentPath={props.currentPath}
            className={styles.megaLinks}
          />
          <ShowMoreLink href={tab.link} label={tab.showMoreLabel} className={styles.showMore} />
        </div>
        <SectionTeaser src={tab.teaserImage} className={styles.megaTeaser} />
      </div>
    </div>
  );
}

/**
 * The language switch: one link ('In English') when the site has two languages, otherwise a
 * menu under the current language's name that opens on hover or by its button (click, Enter,
 * Space). Focus alone does not open it: Tab passes the closed menu in one stop.
 */
export function LanguageSwitch(props: {
  links: DesktopNav['languageMenu'];
  group: Disclosures;
  className?: string;
}) {
  const t = useT();
  const lang = useLang();
  const listId = useId();
  const { links, group } = props;
  if (links.length === 0) return null;
  if (links.length === 1) {
    const [only] = links;
    if (!only) return null;
    return (
      <a
        className={`${styles.toolLink} ${props.className ?? ''}`}
        href={only.link}
        lang={only.lang}
        hrefLang={only.lang}
      >
        <Icon name="globe" size={20} />
        <span>{only.label}</span>
      </a>
    );
  }
  const key = 'language';
  const open = group.openKey === key;
  const name = t(`language.name.${lang}`);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hover opens the menu; the button is the control
    <div
      className={`${styles.languageMenu} ${props.className ?? ''}`}
      data-disclosure-item={key}
      onPointerEnter={(e) => e.pointerType === 'mouse' && group.open(key, 'hover')}
      onPointerLeave={(e) => e.pointerType === 'mouse' && group.leave(key)}
      onBlur={(e) => {
        const next = e.relatedTarget as Node | null;
        if (next && !e.currentTarget.contains(next)) group.close(key);
      }}
    >
      <button
        type="button"
        className={styles.toolLink}
        data-disclosure={key}
        aria-expanded={open}
        aria-controls={listId}
        aria-label={t('header.currentLanguage', { language: name })}
        onClick={() => group.activate(key)}
      >
        <Icon name="globe" size={20} />
        <span>{name}</span>
        <Icon name="chevron" size={16} className={styles.chevron} />
      </button>
      <ul id={listId} className={styles.dropdown} hidden={!open}>
        {links.map((l) => (
          <li key={l.lang}>
            <a href={l.link} lang={l.lang} hrefLang={l.lang}>
              {l.label}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
