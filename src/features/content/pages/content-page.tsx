import type { Block } from '../blocks.ts';
import { Blocks } from '../components/blocks.tsx';
import { Breadcrumbs, type Crumb } from '../components/breadcrumbs.tsx';
import { CardGrid } from '../components/card-grid.tsx';
import styles from '../components/content.module.css';
import type { ImageDto } from '../image-dto.ts';
import type { WidgetData } from '../widgets/data.server.ts';

/** What a content page shows (`contentPageProps` builds it from the page and its children). */
export interface ContentPageProps {
  crumbs: Crumb[];
  title: string;
  teaser: string;
  blocks: Block[];
  /** The page's content id (`page-12`), which a form on it sends (the export form's `ContentId`). */
  contentId?: string;
  images: Map<number, ImageDto>;
  /** The pages of the section, as cards below its blocks. */
  childPages: ChildPageLink[];
  sectionLabel: string;
  /** What the page's widget blocks read from the database. */
  widgets?: WidgetData;
}

export interface ChildPageLink {
  href: string;
  label: string;
  imageId: number | null;
}

/** A content page: its blocks, and for a section page its child pages as cards. */
export function ContentPage(props: ContentPageProps) {
  return (
    <>
      <div className="container">
        <Breadcrumbs items={props.crumbs} />
        <header className={styles.pageHeader}>
          <h1>{props.title}</h1>
          {props.teaser ? <p className={styles.lead}>{props.teaser}</p> : null}
        </header>
      </div>
      <Blocks
        blocks={props.blocks}
        images={props.images}
        widgets={props.widgets ?? {}}
        contentId={props.contentId}
      />
      {props.childPages.length > 0 ? (
        <CardGrid
          header={props.sectionLabel}
          cards={props.childPages.map((child) => ({
            type: 'headerImageWide',
            link: child.href,
            header: child.label,
            ...(child.imageId ? { imageId: child.imageId } : {}),
          }))}
          images={props.images}
        />
      ) : null}
    </>
  );
}
