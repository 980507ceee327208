import { Blocks } from '../components/blocks.tsx';
import { Breadcrumbs, type Crumb } from '../components/breadcrumbs.tsx';
import { CardGrid } from '../components/card-grid.tsx';
import styles from '../components/content.module.css';
import type { ImageDto, PageDto } from '../content.server.ts';

/** A content page: its blocks, and for a section page its child pages as cards. */
export function ContentPage(props: {
  page: PageDto;
  crumbs: Crumb[];
  images: Map<number, ImageDto>;
  childPages: PageDto[];
  sectionLabel: string;
  linkOf: (path: string) => string;
}) {
  const { page } = props;
  return (
    <>
      <div className="container">
        <Breadcrumbs items={props.crumbs} />
        <header className={styles.pageHeader}>
          <h1>{page.title}</h1>
          {page.teaser ? <p className={styles.lead}>{page.teaser}</p> : null}
        </header>
      </div>
      <Blocks blocks={page.blocks} images={props.images} />
      {props.childPages.length > 0 ? (
        <CardGrid
          header={props.sectionLabel}
          cards={props.childPages.map((child) => ({
            type: 'headerImageWide',
            link: props.linkOf(child.path),
            header: child.navLabel,
            ...(child.teaserImageId ? { imageId: child.teaserImageId } : {}),
          }))}
          images={props.images}
        />
      ) : null}
    </>
  );
}
