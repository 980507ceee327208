import type { Block, Card as CardData } from '../blocks.ts';
import { Blocks } from '../components/blocks.tsx';
import { Breadcrumbs, type Crumb } from '../components/breadcrumbs.tsx';
import { CardGrid } from '../components/card-grid.tsx';
import styles from '../components/content.module.css';
import { Pagination } from '../components/pagination.tsx';
import type { ImageDto } from '../image-dto.ts';

/** What a listing page shows (`listingPageProps` builds it from the page and its items). */
export interface ListingPageProps {
  crumbs: Crumb[];
  title: string;
  teaser: string;
  blocks: Block[];
  /** The page's content id (`page-12`), which a form on it sends (the export form's `ContentId`). */
  contentId?: string;
  cards: CardData[];
  images: Map<number, ImageDto>;
  pageNumber: number;
  pages: number;
  basePath: string;
  emptyText: string;
  countText: string;
}

/** Products, recipes or news releases under a page, a page of cards at a time. */
export function ListingPage(props: ListingPageProps) {
  return (
    <>
      <div className="container">
        <Breadcrumbs items={props.crumbs} />
        <header className={styles.pageHeader}>
          <h1>{props.title}</h1>
          {props.teaser ? <p className={styles.lead}>{props.teaser}</p> : null}
          <p>{props.countText}</p>
        </header>
      </div>
      <Blocks blocks={props.blocks} images={props.images} contentId={props.contentId} />
      {props.cards.length > 0 ? (
        <CardGrid cards={props.cards} images={props.images} />
      ) : (
        <p className="container">{props.emptyText}</p>
      )}
      <div className="container">
        <Pagination page={props.pageNumber} pages={props.pages} basePath={props.basePath} />
      </div>
    </>
  );
}
