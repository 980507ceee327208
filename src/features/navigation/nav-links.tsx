import type { z } from 'zod';
import { useT } from '../../i18n/react.tsx';
import { Icon } from './icons.tsx';
import { isCurrentPath } from './nav-paths.ts';
import type { navChildSchema } from './schemas.ts';

/**
 * The parts the desktop mega menu and the mobile side menu share: a section's child links, its
 * teaser picture and its 'show more' link, and the mark of a link that leaves the site.
 */

type NavChild = z.infer<typeof navChildSchema>;

/** The icon and the hidden words that say a link leaves the site. */
export function External() {
  const t = useT();
  return (
    <>
      <Icon name="external" size={16} />
      <span className="visually-hidden"> {t('header.externalLink')}</span>
    </>
  );
}

/** A section's child links; the current page's link says so (`aria-current="page"`). */
export function ChildLinks(props: {
  links: NavChild[];
  currentPath: string;
  className?: string | undefined;
}) {
  return (
    <ul className={props.className}>
      {props.links.map((child) => (
        <li key={`${child.link}-${child.label}`}>
          <a
            href={child.link}
            aria-current={isCurrentPath(child.link, props.currentPath) ? 'page' : undefined}
          >
            {child.label}
            {child.isExternal ? <External /> : null}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** A section's teaser picture: decorative, loaded only when the menu shows it. */
export function SectionTeaser(props: { src: string | null; className?: string | undefined }) {
  if (!props.src) return null;
  return (
    <img
      className={props.className}
      src={props.src}
      alt=""
      width={300}
      height={200}
      loading="lazy"
      decoding="async"
    />
  );
}

/** The link to the whole section, under its configured label. */
export function ShowMoreLink(props: {
  href: string;
  label: string | null;
  className?: string | undefined;
}) {
  if (!props.label) return null;
  return (
    <a className={props.className} href={props.href}>
      {props.label}
      <Icon name="arrow" size={18} />
    </a>
  );
}
