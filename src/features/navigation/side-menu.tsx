import { inertOthers } from 'aria-hidden';
import {
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { useLang, useT } from '../../i18n/react.tsx';
import type { HeaderVariant, LogoId } from '../../sites/types.ts';
// The widget's own module, not the feature's index: the index also brings the search page's
// server-side block (and React's server renderer) into the header's browser chunk.
import { QuickSearch } from '../search/index.ts';
import { Icon } from './icons.tsx';
import { trapIndex } from './keyboard.ts';
import { ChildLinks, External, SectionTeaser, ShowMoreLink } from './nav-links.tsx';
import { isCurrentPath } from './nav-paths.ts';
import type { MobileNav } from './schemas.ts';
import styles from './side-menu.module.css';
import { SiteLogo } from './site-logo.tsx';

type Accordion = MobileNav['navAccordions'][number];

/**
 * Elements Tab can reach inside `root` that are shown (collapsed panels are not); quick-search
 * options are reached with the arrows, not Tab.
 */
function tabbable(root: HTMLElement): HTMLElement[] {
  return Array.from(
    root.querySelectorAll<HTMLElement>('a[href], button:not([disabled]), input:not([disabled])'),
  ).filter(
    (el) =>
      el.tabIndex >= 0 &&
      (typeof el.checkVisibility === 'function'
        ? el.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions)
        : el.getClientRects().length > 0),
  );
}

/**
 * The mobile side menu: a modal panel that slides in with the logo, a close button, the search
 * box (not on the master-chef brand), the navigation as accordions, extra links and the language
 * menu. Focus moves in when it opens and stays inside (Tab wraps), and the page behind it is inert;
 * Escape and the close button close it. Closed, the menu itself is inert: nothing in it takes
 * focus or reaches the accessibility tree, whatever its accordions show. The third brand also
 * closes on a press outside and has a home button; export has its own side navigation (from the
 * right, every section open).
 */
export function SideMenu(props: {
  id: string;
  open: boolean;
  onClose(): void;
  variant: HeaderVariant;
  siteName: string;
  logo: LogoId;
  homeHref: string;
  searchAction: string;
  currentPath: string;
  nav: MobileNav;
}) {
  const t = useT();
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const backdrop = useRef<HTMLDivElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const { variant, nav, open, onClose } = props;
  const thirdBrand = variant === 'third-brand';
  const plain = variant === 'master-chef';
  const exportNav = variant === 'export';

  useEffect(() => {
    if (open) closeButton.current?.focus();
  }, [open]);

  // While open, everything else is inert (the backdrop stays live: a press on it closes the third
  // brand's menu); the cleanup gives the page back before the header returns focus to the burger.
  useEffect(() => {
    if (!open || !panel.current || !backdrop.current) return;
    return inertOthers([panel.current, backdrop.current]);
  }, [open]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    const items = tabbable(panel.current);
    const next = trapIndex(
      items.indexOf(document.activeElement as HTMLElement),
      items.length,
      event.shiftKey,
    );
    if (next !== undefined) {
      event.preventDefault();
      items[next]?.focus();
    }
  };

  const className = [styles.panel, exportNav ? styles.fromRight : '', open ? styles.open : ''].join(
    ' ',
  );

  return (
    <>
      {/* A press outside closes the third brand's menu; elsewhere the close button does. */}
      <div
        ref={backdrop}
        className={`${styles.backdrop} ${open ? styles.open : ''}`}
        aria-hidden="true"
        onClick={thirdBrand ? onClose : undefined}
      />
      <div
        ref={panel}
        id={props.id}
        className={className}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        inert={!open}
        onKeyDown={open ? onKeyDown : undefined}
      >
        <h2 id={titleId} className="visually-hidden">
          {t('menu.label')}
        </h2>
        <MenuHead
          thirdBrand={thirdBrand}
          homeHref={props.homeHref}
          siteName={props.siteName}
          logo={props.logo}
          closeButton={closeButton}
          onClose={onClose}
        />
        {plain ? null : (
          <div className={styles.search}>
            <h3 className={styles.searchHeading}>{t('search.label')}</h3>
            <QuickSearch action={props.searchAction} label={t('search.label')} layout="mobile" />
          </div>
        )}
        <MenuNav nav={nav} variant={variant} currentPath={props.currentPath} menuOpen={open} />
        <Languages links={nav.languageMenu} globe={variant !== 'corporate'} />
      </div>
    </>
  );
}

/** The menu's head: the third brand's home button, the logo and the close button. */
function MenuHead(props: {
  thirdBrand: boolean;
  homeHref: string;
  siteName: string;
  logo: LogoId;
  closeButton: RefObject<HTMLButtonElement | null>;
  onClose(): void;
}) {
  const t = useT();
  return (
    <div className={styles.head}>
      {props.thirdBrand ? (
        <a className={styles.iconButton} href={props.homeHref} aria-label={t('menu.home')}>
          <Icon name="home" />
        </a>
      ) : null}
      <a
        className={styles.logo}
        href={props.homeHref}
        aria-label={t('layout.homeLink', { name: props.siteName })}
      >
        <SiteLogo logo={props.logo} name={props.siteName} className={styles.logoSvg} />
      </a>
      <button
        ref={props.closeButton}
        type="button"
        className={styles.iconButton}
        aria-label={t('menu.close')}
        onClick={props.onClose}
      >
        <Icon name="close" />
      </button>
    </div>
  );
}

/**
 * The navigation: each entry a link, an accordion of its children, or (export) the link with its
 * children always shown; then the extra links.
 */
function MenuNav(props: {
  nav: MobileNav;
  variant: HeaderVariant;
  currentPath: string;
  menuOpen: boolean;
}) {
  const t = useT();
  const { nav } = props;
  const plain = props.variant === 'master-chef';
  const exportNav = props.variant === 'export';
  return (
    <nav aria-label={t('layout.mainNavigation')} className={styles.nav}>
      <ul className={styles.entries}>
        {nav.navAccordions.map((entry) =>
          plain || entry.children.length === 0 ? (
            <li key={entry.link} className={styles.entry}>
              <EntryLink entry={entry} currentPath={props.currentPath} />
            </li>
          ) : exportNav ? (
            <li key={entry.link} className={styles.entry}>
              <EntryLink entry={entry} currentPath={props.currentPath} />
              <ChildLinks
                links={entry.children}
                currentPath={props.currentPath}
                className={styles.children}
              />
            </li>
          ) : (
            <NavAccordion
              key={entry.link}
              entry={entry}
              currentPath={props.currentPath}
              menuOpen={props.menuOpen}
            />
          ),
        )}
      </ul>
      {nav.navLinks.length > 0 ? (
        <ul className={styles.extraLinks}>
          {nav.navLinks.map((link) => (
            <li key={link.link}>
              <a
                href={link.link}
                aria-current={isCurrentPath(link.link, props.currentPath) ? 'page' : undefined}
              >
                <Icon name={link.icon ?? 'arrow'} size={20} />
                <span>{link.label}</span>
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </nav>
  );
}

function EntryLink(props: { entry: Accordion; currentPath: string }) {
  const { entry } = props;
  return (
    <a
      className={styles.entryLink}
      href={entry.link}
      aria-current={isCurrentPath(entry.link, props.currentPath) ? 'page' : undefined}
    >
      {entry.label}
      {entry.isExternal ? <External /> : null}
    </a>
  );
}

/** An accordion: a head and a panel that opens up to a limited height (spec §9: 100 or 800 px). */
function Disclosure(props: {
  head: (toggle: { open: boolean; id: string; toggle(): void }) => ReactNode;
  initiallyOpen: boolean;
  small?: boolean;
  className?: string;
  /** The panel's content, or a function of whether it is open. */
  children: ReactNode | ((open: boolean) => ReactNode);
}) {
  const [open, setOpen] = useState(props.initiallyOpen);
  const id = useId();
  return (
    <li className={`${props.className ?? ''} ${open ? styles.expanded : ''}`}>
      {props.head({ open, id, toggle: () => setOpen((v) => !v) })}
      <div id={id} className={`${styles.accordionPanel} ${props.small ? styles.small : ''}`}>
        {typeof props.children === 'function' ? props.children(open) : props.children}
      </div>
    </li>
  );
}

function NavAccordion(props: { entry: Accordion; currentPath: string; menuOpen: boolean }) {
  const t = useT();
  const { entry } = props;
  return (
    <Disclosure
      className={styles.entry}
      initiallyOpen={entry.expanded}
      head={({ open, id, toggle }) => (
        <div className={styles.entryHead}>
          <EntryLink entry={entry} currentPath={props.currentPath} />
          <ToggleButton
            open={open}
            controls={id}
            label={t('header.showSubmenu', { label: entry.label })}
            onClick={toggle}
          />
        </div>
      )}
    >
      {(open) => (
        <>
          <ChildLinks
            links={entry.children}
            currentPath={props.currentPath}
            className={styles.children}
          />
          {/* Only in a section the visitor opened: the closed menu sits just off screen, where
              `loading="lazy"` still fetches, so every page would load every section's picture. */}
          {open && props.menuOpen ? (
            <SectionTeaser src={entry.teaserImage} className={styles.teaser} />
          ) : null}
          <ShowMoreLink href={entry.link} label={entry.showMoreLabel} className={styles.showMore} />
        </>
      )}
    </Disclosure>
  );
}

function ToggleButton(props: { open: boolean; controls: string; label: string; onClick(): void }) {
  return (
    <button
      type="button"
      className={styles.iconButton}
      aria-expanded={props.open}
      aria-controls={props.controls}
      aria-label={props.label}
      onClick={props.onClick}
    >
      <Icon name="chevron" className={styles.chevron} />
    </button>
  );
}

/**
 * Language links at the foot of the menu: on the brand sites behind a globe button labelled with
 * the current language (a small accordion), on the corporate sites as plain links.
 */
function Languages(props: { links: MobileNav['languageMenu']; globe: boolean }) {
  const t = useT();
  const lang = useLang();
  if (props.links.length === 0) return null;
  const list = (
    <ul className={styles.languageLinks}>
      {props.links.map((l) => (
        <li key={l.lang}>
          <a href={l.link} lang={l.lang} hrefLang={l.lang}>
            {l.label}
          </a>
        </li>
      ))}
    </ul>
  );
  if (!props.globe) {
    return (
      <nav className={styles.languages} aria-label={t('header.languages')}>
        {list}
      </nav>
    );
  }
  const name = t(`language.name.${lang}`);
  return (
    <nav className={styles.languages} aria-label={t('header.languages')}>
      <ul className={styles.entries}>
        <Disclosure
          small
          initiallyOpen={false}
          head={({ open, id, toggle }) => (
            <button
              type="button"
              className={styles.languageButton}
              aria-expanded={open}
              aria-controls={id}
              aria-label={t('header.currentLanguage', { language: name })}
              onClick={toggle}
            >
              <Icon name="globe" size={20} />
              <span>{name}</span>
              <Icon name="chevron" size={18} className={styles.chevron} />
            </button>
          )}
        >
          {list}
        </Disclosure>
      </ul>
    </nav>
  );
}
