import type { ReactNode } from 'react';
import type { Block } from '../blocks.ts';
import { Blocks } from '../components/blocks.tsx';
import { Breadcrumbs, type Crumb } from '../components/breadcrumbs.tsx';
import styles from '../components/content.module.css';
import type { ImageDto } from '../image-dto.ts';

/** What a page that holds a search shows (`searchHostPageProps` builds it). */
export interface SearchHostPageProps {
  crumbs: Crumb[];
  title: string;
  teaser: string;
  blocks: Block[];
  /** The page's content id (`page-12`), which a form on it sends (the export form's `ContentId`). */
  contentId?: string;
  images: Map<number, ImageDto>;
  /**
   * The search, rendered by the feature that owns it. An `inline` one (a facet search) sits in the
   * page's column under its lead; the site search takes the page's width below the heading.
   */
  search: { element: ReactNode; inline: boolean };
}

/** A page that holds a search: heading, the search, then the page's blocks. */
export function SearchHostPage(props: SearchHostPageProps) {
  const { element, inline } = props.search;
  return (
    <>
      <div className="container">
        <Breadcrumbs items={props.crumbs} />
        <header className={styles.pageHeader}>
          <h1>{props.title}</h1>
          {props.teaser && inline ? <p className={styles.lead}>{props.teaser}</p> : null}
        </header>
        {inline ? element : null}
      </div>
      {inline ? null : element}
      <Blocks blocks={props.blocks} images={props.images} contentId={props.contentId} />
    </>
  );
}
