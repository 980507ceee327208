import type { Card as CardData } from '../blocks.ts';
import { Blocks } from '../components/blocks.tsx';
import { Breadcrumbs, type Crumb } from '../components/breadcrumbs.tsx';
import { CardGrid } from '../components/card-grid.tsx';
import styles from '../components/content.module.css';
import { Pagination } from '../components/pagination.tsx';
import type { ImageDto, PageDto } from '../content.server.ts';

/** Products, recipes or news releases under a page, a page of cards at a time. */
export function ListingPage(props: {
  page: PageDto;
  crumbs: Crumb[];
  cards: CardData[];
  images: Map<number, ImageDto>;
  pageNumber: number;
  pages: number;
  basePath: string;
  emptyText: string;
  countText: string;
}) {
  return (
    <>
      <div className="container">
        <Breadcrumbs items={props.crumbs} />
        <header className={styles.pageHeader}>
          <h1>{props.page.title}</h1>
          {props.page.teaser ? <p className={styles.lead}>{props.page.teaser}</p> : null}
          <p>{props.countText}</p>
        </header>
      </div>
      <Blocks blocks={props.page.blocks} images={props.images} />
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
