import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useT } from '../../i18n/react.tsx';
// The widget's own module, not the feature's index: the index also brings the search page's
// server-side block (and React's server renderer) into the header's browser chunk.
import { QuickSearch } from '../search/index.ts';
import { LanguageSwitch, TabRow } from './desktop-menus.tsx';
import { HeaderCartLink } from './header-cart-link.tsx';
import type { SiteHeaderProps } from './header-props.ts';
import { Icon } from './icons.tsx';
import { isCurrentPath } from './nav-paths.ts';
import { SideMenu } from './side-menu.tsx';
import styles from './site-header.module.css';
import { SiteLogo } from './site-logo.tsx';
import { useDisclosures } from './use-disclosures.ts';
import { useHeaderMode, useScrollState } from './use-header-mode.ts';
import { useOverflowEdges } from './use-overflow-edges.ts';
import { useStickyHeight } from './use-sticky-height.ts';

export type { SiteHeaderProps } from './header-props.ts';

/** Whether the page is shown inside a frame (the shop opens as a hidden frame for cart sync). */
function inFrame(): boolean {
  try {
    return window.top !== window.self;
  } catch {
    // A browser that will not even compare with a cross-origin top: certainly a frame.
    return true;
  }
}

/**
 * The site header, desktop and mobile in one island. CSS media queries decide which parts show at
 * which width, so the server's markup is right before hydration and nothing moves when it happens;
 * script adds only behaviour: menus, the sticky bar, the side menu and the quick-search panel.
 * Inside a frame the shop shows no header (spec §2): the island leaves it out when it hydrates,
 * as no markup or style of the server can know about the frame and the policy allows no inline
 * script.
 */
export function SiteHeader(props: SiteHeaderProps) {
  const t = useT();
  const root = useRef<HTMLElement>(null);
  const burger = useRef<HTMLButtonElement>(null);
  const searchToggle = useRef<HTMLButtonElement>(null);
  const quickInput = useRef<HTMLInputElement>(null);
  const barLinks = useRef<HTMLUListElement>(null);
  const sideMenuId = useId();
  const quickSearchId = useId();
  const mode = useHeaderMode();
  const { sticky, scrolled } = useScrollState(props.stickyThreshold);
  const group = useDisclosures(root);
  const [sideOpen, setSideOpen] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
  // Every close of the mobile search panel empties its box: a new key gives a fresh box.
  const [searchRound, setSearchRound] = useState(0);
  const [framed, setFramed] = useState(false);
  useStickyHeight(root, mode, !framed);
  const moreLinks = useOverflowEdges(barLinks);

  const { variant, desktop, mobile, cart } = props;
  const masterChef = variant === 'master-chef';
  const panel = variant === 'corporate' || variant === 'simple-dropdown' ? 'dropdown' : 'mega';
  const topTabs = masterChef ? [] : desktop.topTabs;
  useEffect(() => {
    if (props.hideInFrame && inFrame()) setFramed(true);
  }, [props.hideInFrame]);

  // However the mobile search panel closes, its box and results are cleared.
  const searchWasOpen = useRef(false);
  useEffect(() => {
    if (searchWasOpen.current && !searchOpen) setSearchRound((n) => n + 1);
    searchWasOpen.current = searchOpen;
  }, [searchOpen]);
  const closeSearch = useCallback(() => setSearchOpen(false), []);

  // Switching mode closes what belongs to the other one.
  const { close } = group;
  useEffect(() => {
    if (mode === 'desktop') {
      setSideOpen(false);
      closeSearch();
    } else if (mode === 'mobile') close();
  }, [mode, close, closeSearch]);

  // The page behind the open side menu does not scroll.
  useEffect(() => {
    if (!sideOpen) return;
    const html = document.documentElement;
    const before = html.style.overflow;
    html.style.overflow = 'hidden';
    return () => {
      html.style.overflow = before;
    };
  }, [sideOpen]);

  // The mobile quick-search panel: focus goes into it; Escape or a press outside closes and
  // clears it (as the search toggle does).
  useEffect(() => {
    if (!searchOpen) return;
    quickInput.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      closeSearch();
      searchToggle.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      const inside =
        document.getElementById(quickSearchId)?.contains(target) ||
        searchToggle.current?.contains(target);
      if (!inside) closeSearch();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [searchOpen, quickSearchId, closeSearch]);

  // Closed by the visitor (not by a switch to the desktop mode), the side menu gives focus back
  // to the burger once it has closed, as the page behind is inert until then.
  const returnFocus = useRef(false);
  const closeSideMenu = () => {
    returnFocus.current = true;
    setSideOpen(false);
  };
  useEffect(() => {
    if (sideOpen || !returnFocus.current) return;
    returnFocus.current = false;
    burger.current?.focus();
  }, [sideOpen]);

  const hasBottom = desktop.bottomTabs.length > 0;

  if (framed) return null;

  return (
    <>
      <header
        ref={root}
        className={`${styles.header} ${hasBottom ? styles.withBottom : ''}`}
        data-variant={variant}
        data-sticky={sticky || undefined}
        data-scrolled={scrolled || undefined}
      >
        <div className={`container ${styles.bar}`}>
          <button
            ref={burger}
            type="button"
            className={`${styles.iconButton} ${styles.mobileOnly}`}
            aria-expanded={sideOpen}
            aria-controls={sideMenuId}
            aria-label={t('menu.label')}
            onClick={() => setSideOpen(true)}
          >
            <Icon name="menu" size={28} />
          </button>
          <a
            className={styles.home}
            href={props.homeHref}
            aria-label={t('layout.homeLink', { name: props.siteName })}
          >
            <SiteLogo className={styles.logo} logo={props.logo} name={props.siteName} />
          </a>
          {topTabs.length > 0 ? (
            <TabRow
              tabs={topTabs}
              row="top"
              panel="dropdown"
              label={t('header.topNavigation')}
              currentPath={props.currentPath}
              group={group}
              className={`${styles.topNav} ${styles.desktopOnly}`}
            />
          ) : null}
          <div className={styles.tools}>
            <LanguageSwitch
              links={desktop.languageMenu}
              group={group}
              className={styles.desktopOnly}
            />
            <QuickSearch
              action={props.searchAction}
              label={t('search.label')}
              layout="full"
              className={`${styles.topSearch} ${styles.desktopOnly}`}
            />
            {cart ? <HeaderCartLink cart={cart} /> : null}
            {props.account ? (
              <a className={`${styles.toolLink} ${styles.desktopOnly}`} href={props.account.href}>
                <Icon name="user" size={20} />
                <span>{t(props.account.loggedIn ? 'header.account' : 'header.login')}</span>
              </a>
            ) : null}
            <button
              ref={searchToggle}
              type="button"
              className={`${styles.iconButton} ${styles.mobileOnly}`}
              aria-expanded={searchOpen}
              aria-controls={quickSearchId}
              aria-label={t('header.searchToggle')}
              onClick={() => (searchOpen ? closeSearch() : setSearchOpen(true))}
            >
              <Icon name={searchOpen ? 'close' : 'search'} size={26} />
            </button>
          </div>
        </div>
        {mobile.barLinks.length > 0 ? (
          <nav
            className={`${styles.barLinks} ${styles.mobileOnly}`}
            aria-label={t('header.shortcuts')}
            // The row scrolls sideways when its links do not fit: the end it hides fades out.
            data-more-start={moreLinks.start || undefined}
            data-more-end={moreLinks.end || undefined}
          >
            <ul
              ref={barLinks}
              // Focus alone leaves a link the row half shows where it is: bring it in whole.
              onFocus={(event) =>
                event.target.scrollIntoView({ block: 'nearest', inline: 'nearest' })
              }
            >
              {mobile.barLinks.map((link) => (
                <li key={link.link}>
                  <a
                    href={link.link}
                    aria-current={isCurrentPath(link.link, props.currentPath) ? 'page' : undefined}
                  >
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <div
          id={quickSearchId}
          className={`${styles.quickSearch} ${styles.mobileOnly}`}
          hidden={!searchOpen}
        >
          <QuickSearch
            key={searchRound}
            action={props.searchAction}
            label={t('header.quickSearch')}
            showLabel
            layout="mobile"
            inputRef={quickInput}
            className="container"
          />
        </div>
        {hasBottom ? (
          <div className={`${styles.bottom} ${styles.desktopOnly}`} data-header-row="bottom">
            <div className={`container ${styles.bottomInner}`}>
              <TabRow
                tabs={desktop.bottomTabs}
                row="bottom"
                panel={panel}
                label={t('layout.mainNavigation')}
                currentPath={props.currentPath}
                group={group}
                className={styles.bottomNav}
              />
              <QuickSearch
                action={props.searchAction}
                label={t('header.stickySearch')}
                compact
                layout="quick"
                className={styles.stickySearch}
              />
            </div>
          </div>
        ) : null}
      </header>
      <SideMenu
        id={sideMenuId}
        open={sideOpen}
        onClose={closeSideMenu}
        variant={variant}
        siteName={props.siteName}
        logo={props.logo}
        homeHref={props.homeHref}
        searchAction={props.searchAction}
        currentPath={props.currentPath}
        nav={mobile}
      />
    </>
  );
}
