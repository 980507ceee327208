import { useEffect, useId, useRef, useState } from 'react';
import { useT } from '../../i18n/react.tsx';
import { LanguageSwitch, TabRow } from './desktop-menus.tsx';
import type { SiteHeaderProps } from './header-props.ts';
import { Icon } from './icons.tsx';
import { isCurrentPath } from './nav-paths.ts';
import { SearchForm } from './search-form.tsx';
import { SideMenu } from './side-menu.tsx';
import styles from './site-header.module.css';
import { SiteLogo } from './site-logo.tsx';
import { useDisclosures } from './use-disclosures.ts';
import { useHeaderMode, useScrollState } from './use-header-mode.ts';

export type { SiteHeaderProps } from './header-props.ts';

/**
 * The site header, desktop and mobile in one island. CSS media queries decide which parts show at
 * which width, so the server's markup is right before hydration and nothing moves when it happens;
 * script adds only behaviour: menus, the sticky bar, the side menu and the quick-search panel.
 */
export function SiteHeader(props: SiteHeaderProps) {
  const t = useT();
  const root = useRef<HTMLElement>(null);
  const burger = useRef<HTMLButtonElement>(null);
  const searchToggle = useRef<HTMLButtonElement>(null);
  const quickInput = useRef<HTMLInputElement>(null);
  const sideMenuId = useId();
  const quickSearchId = useId();
  const mode = useHeaderMode();
  const { sticky, scrolled } = useScrollState(props.stickyThreshold);
  const group = useDisclosures(root);
  const [sideOpen, setSideOpen] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);

  const { variant, desktop, mobile, cart } = props;
  const masterChef = variant === 'master-chef';
  const panel = variant === 'corporate' || variant === 'simple-dropdown' ? 'dropdown' : 'mega';
  const topTabs = masterChef ? [] : desktop.topTabs;
  const cartCount = cart?.lineItemCount ?? 0;

  // Switching mode closes what belongs to the other one.
  const { close } = group;
  useEffect(() => {
    if (mode === 'desktop') {
      setSideOpen(false);
      setSearchOpen(false);
    } else if (mode === 'mobile') close();
  }, [mode, close]);

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

  // The quick-search panel: focus goes into it; Escape or a press outside closes it.
  useEffect(() => {
    if (!searchOpen) return;
    quickInput.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setSearchOpen(false);
      searchToggle.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      const inside =
        document.getElementById(quickSearchId)?.contains(target) ||
        searchToggle.current?.contains(target);
      if (!inside) setSearchOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [searchOpen, quickSearchId]);

  const closeSideMenu = () => {
    setSideOpen(false);
    burger.current?.focus();
  };

  const cartLabel =
    cartCount > 0 ? t('header.cartWithCount', { count: cartCount }) : t('header.cart');
  const hasBottom = desktop.bottomTabs.length > 0;

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
            <SearchForm
              action={props.searchAction}
              label={t('search.label')}
              className={`${styles.topSearch} ${styles.desktopOnly}`}
            />
            {cart ? (
              <a
                className={`${styles.iconButton} ${cartCount > 0 ? '' : styles.desktopOnly}`}
                href={cart.href}
                aria-label={cartLabel}
              >
                <Icon name="cart" size={26} />
                {cartCount > 0 ? (
                  <span className={styles.badge} aria-hidden="true">
                    {cartCount}
                  </span>
                ) : null}
              </a>
            ) : null}
            {props.account ? (
              <a className={`${styles.toolLink} ${styles.desktopOnly}`} href={props.account.href}>
                <Icon name="user" size={20} />
                <span>{t('header.account')}</span>
              </a>
            ) : null}
            <button
              ref={searchToggle}
              type="button"
              className={`${styles.iconButton} ${styles.mobileOnly}`}
              aria-expanded={searchOpen}
              aria-controls={quickSearchId}
              aria-label={t('header.searchToggle')}
              onClick={() => setSearchOpen((v) => !v)}
            >
              <Icon name={searchOpen ? 'close' : 'search'} size={26} />
            </button>
          </div>
        </div>
        {mobile.barLinks.length > 0 ? (
          <nav
            className={`${styles.barLinks} ${styles.mobileOnly}`}
            aria-label={t('header.shortcuts')}
          >
            <ul className="container">
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
          <SearchForm
            action={props.searchAction}
            label={t('header.quickSearch')}
            showLabel
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
              <SearchForm
                action={props.searchAction}
                label={t('header.stickySearch')}
                compact
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
