import { type RefObject, useEffect, useId, useRef, useState } from 'react';
import { useT } from '../../i18n/react.tsx';
import { deferredPart } from '../../render/deferred-part.tsx';
import type { CartSyncPart } from '../shop/index.ts';
import { LanguageSwitch, TabRow } from './desktop-menus.tsx';
import { CartSyncContext, HeaderAccountLink, HeaderCartLink } from './header-cart-link.tsx';
import type { SiteHeaderProps } from './header-props.ts';
import { Icon } from './icons.tsx';
import { isCurrentPath } from './nav-paths.ts';
import styles from './site-header.module.css';
import { useDisclosures } from './use-disclosures.ts';
import { useHeaderMode, useScrollState } from './use-header-mode.ts';
import { useOverflowEdges } from './use-overflow-edges.ts';
import { useQuickSearchPanel } from './use-quick-search-panel.ts';
import { useSideMenuState } from './use-side-menu-state.ts';
import { useStickyHeight } from './use-sticky-height.ts';

export type { SiteHeaderProps } from './header-props.ts';

/**
 * Parts of the header whose code loads when the visitor reaches for them (decision 160): the
 * side menu (the burger) and the quick-search boxes (a pointer, a touch or focus in one, or
 * typing). Until then the server's markup stays as it is: the closed, inert menu; search forms
 * that work without script (they go to the search page).
 */
const sideMenu = deferredPart(() => import('./side-menu.tsx').then((m) => m.SideMenu));
const quickSearch = deferredPart(() => import('../search/index.ts').then((m) => m.QuickSearch));
/**
 * The logo is markup that never changes: the browser keeps the server's and never loads its code
 * (the glyphs of the initials); the side menu's copy comes with the side menu.
 */
const siteLogo = deferredPart(() => import('./site-logo.tsx').then((m) => m.SiteLogo));
const SideMenu = sideMenu.Part;
const QuickSearch = quickSearch.Part;
const SiteLogo = siteLogo.Part;

/** Loads the header's deferred parts: the server does before it renders a header (`islands.ts`). */
export function loadDeferredParts(): Promise<void> {
  return Promise.all([sideMenu.load(), quickSearch.load(), siteLogo.load()]).then(() => undefined);
}

/** Events that show the visitor is about to use a quick-search box. */
const SEARCH_INTENT = ['pointerover', 'touchstart', 'focusin', 'keydown', 'input'] as const;

/**
 * Loads the quick search's code at the first sign of use of any of the header's search boxes,
 * or at once when one has focus already (reached for before the header hydrated). It listens on
 * the document: React stops the events it holds back for a part it has not hydrated yet, so a
 * listener inside the island would not hear them.
 */
function useQuickSearchOnIntent(root: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const header = root.current;
    if (!header) return;
    const inSearch = (target: EventTarget | null) =>
      target instanceof Element &&
      header.contains(target) &&
      target.closest('form[role="search"]') !== null;
    if (inSearch(document.activeElement)) {
      void quickSearch.load();
      return;
    }
    const stop = () => {
      for (const type of SEARCH_INTENT) document.removeEventListener(type, onIntent, true);
    };
    const onIntent = (event: Event) => {
      if (!inSearch(event.target)) return;
      stop();
      void quickSearch.load();
    };
    for (const type of SEARCH_INTENT)
      document.addEventListener(type, onIntent, { capture: true, passive: true });
    return stop;
  }, [root]);
}

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
  const sideMenuId = useId();
  const quickSearchId = useId();
  const mode = useHeaderMode();
  const { sticky, scrolled } = useScrollState(props.stickyThreshold);
  const group = useDisclosures(root);
  const search = useQuickSearchPanel(quickSearchId);
  const side = useSideMenuState(burger);
  const framed = useFramed(props.hideInFrame);
  useStickyHeight(root, mode, !framed);
  useQuickSearchOnIntent(root);

  const { variant, desktop, mobile } = props;
  const topTabs = variant === 'master-chef' ? [] : desktop.topTabs;

  // Switching mode closes what belongs to the other one.
  const { close } = group;
  const { setOpen: setSideOpen } = side;
  const { close: closeSearch } = search;
  useEffect(() => {
    if (mode === 'desktop') {
      setSideOpen(false);
      closeSearch();
    } else if (mode === 'mobile') close();
  }, [mode, close, closeSearch, setSideOpen]);

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
            aria-expanded={side.open}
            aria-controls={sideMenuId}
            aria-label={t('menu.label')}
            // The menu's code loads on the first sign of use and opens the menu once it is here.
            onPointerEnter={() => void sideMenu.load()}
            onFocus={() => void sideMenu.load()}
            onClick={() => void sideMenu.load().then(() => side.setOpen(true))}
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
          <HeaderTools {...props} group={group} search={search} quickSearchId={quickSearchId} />
        </div>
        {mobile.barLinks.length > 0 ? (
          <BarLinks links={mobile.barLinks} currentPath={props.currentPath} />
        ) : null}
        <div
          id={quickSearchId}
          className={`${styles.quickSearch} ${styles.mobileOnly}`}
          hidden={!search.open}
        >
          <QuickSearch
            key={search.round}
            action={props.searchAction}
            label={t('header.quickSearch')}
            showLabel
            layout="mobile"
            inputRef={search.input}
            className="container"
          />
        </div>
        {hasBottom ? <BottomRow {...props} group={group} /> : null}
      </header>
      <SideMenu
        id={sideMenuId}
        open={side.open}
        onClose={side.closeByVisitor}
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

/**
 * The header of a site that sells through the shop: its cart link shows the synced cart (the
 * shop's `cartSync` part, joined by the app's registry as `site-header-synced`).
 */
export function siteHeaderWith(sync: CartSyncPart) {
  // biome-ignore lint/correctness/noComponentHookFactories: made once, when the registry joins the parts (as cardGridWith)
  return function SyncedSiteHeader(props: SiteHeaderProps) {
    return (
      <CartSyncContext value={sync}>
        <SiteHeader {...props} />
      </CartSyncContext>
    );
  };
}

/**
 * Inside a frame the header leaves itself out once hydrated (the server cannot know about the
 * frame): true there when `hideInFrame` asks for it.
 */
function useFramed(hideInFrame: boolean | undefined): boolean {
  const [framed, setFramed] = useState(false);
  useEffect(() => {
    if (hideInFrame && inFrame()) setFramed(true);
  }, [hideInFrame]);
  return framed;
}

/** The bar's tools: languages, search, cart, account, and the mobile search panel's toggle. */
function HeaderTools(
  props: SiteHeaderProps & {
    group: ReturnType<typeof useDisclosures>;
    search: ReturnType<typeof useQuickSearchPanel>;
    quickSearchId: string;
  },
) {
  const t = useT();
  const { search } = props;
  return (
    <div className={styles.tools}>
      <LanguageSwitch
        links={props.desktop.languageMenu}
        group={props.group}
        className={styles.desktopOnly}
      />
      <QuickSearch
        action={props.searchAction}
        label={t('search.label')}
        layout="full"
        className={`${styles.topSearch} ${styles.desktopOnly}`}
      />
      {props.cart ? <HeaderCartLink cart={props.cart} visitor={props.visitor} /> : null}
      {props.account ? <HeaderAccountLink account={props.account} visitor={props.visitor} /> : null}
      <button
        ref={search.toggle}
        type="button"
        className={`${styles.iconButton} ${styles.mobileOnly}`}
        aria-expanded={search.open}
        aria-controls={props.quickSearchId}
        aria-label={t('header.searchToggle')}
        // The panel's box takes the focus as it opens: its code is loaded first.
        onClick={() =>
          search.open ? search.close() : void quickSearch.load().then(() => search.setOpen(true))
        }
      >
        <Icon name={search.open ? 'close' : 'search'} size={26} />
      </button>
    </div>
  );
}

/** The mobile row of shortcut links; it scrolls sideways when they do not fit. */
function BarLinks(props: { links: SiteHeaderProps['mobile']['barLinks']; currentPath: string }) {
  const t = useT();
  const list = useRef<HTMLUListElement>(null);
  const more = useOverflowEdges(list);
  return (
    <nav
      className={`${styles.barLinks} ${styles.mobileOnly}`}
      aria-label={t('header.shortcuts')}
      // The row scrolls sideways when its links do not fit: the end it hides fades out.
      data-more-start={more.start || undefined}
      data-more-end={more.end || undefined}
    >
      <ul
        ref={list}
        // Focus alone leaves a link the row half shows where it is: bring it in whole.
        onFocus={(event) => event.target.scrollIntoView({ block: 'nearest', inline: 'nearest' })}
      >
        {props.links.map((link) => (
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
  );
}

/** The desktop's bottom row: the main navigation and the sticky bar's search. */
function BottomRow(props: SiteHeaderProps & { group: ReturnType<typeof useDisclosures> }) {
  const t = useT();
  const panel =
    props.variant === 'corporate' || props.variant === 'simple-dropdown' ? 'dropdown' : 'mega';
  return (
    <div className={`${styles.bottom} ${styles.desktopOnly}`} data-header-row="bottom">
      <div className={`container ${styles.bottomInner}`}>
        <TabRow
          tabs={props.desktop.bottomTabs}
          row="bottom"
          panel={panel}
          label={t('layout.mainNavigation')}
          currentPath={props.currentPath}
          group={props.group}
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
  );
}
