import { formatDate } from '../../../i18n/format.ts';
import { Img } from '../../../images/picture.tsx';
import { usePage } from '../../../render/page-context.tsx';
import { RichText } from '../../../render/rich-text.server.tsx';
import { Breadcrumbs, type Crumb } from '../components/breadcrumbs.tsx';
import styles from '../components/content.module.css';
import type { ImageDto } from '../image-dto.ts';

/** What a news release's page shows (`newsPageProps` builds it from the release). */
export interface NewsPageProps {
  crumbs: Crumb[];
  image: ImageDto | undefined;
  title: string;
  teaser: string;
  /** The kind of release as its service names it ('Lehdistötiedote'). */
  textType: string | null;
  publishDate: Date;
  bodyHtml: string;
  authors: string[];
}

export function NewsPage(props: NewsPageProps) {
  const { t, lang } = usePage();
  return (
    <div className="container">
      <Breadcrumbs items={props.crumbs} />
      <article className={styles.prose}>
        <header className={styles.pageHeader}>
          {props.textType ? <span className={styles.badge}>{props.textType}</span> : null}
          <h1>{props.title}</h1>
          <p>
            {t('news.published')}{' '}
            <time dateTime={props.publishDate.toISOString()}>
              {formatDate(props.publishDate, lang)}
            </time>
          </p>
          {props.teaser ? <p className={styles.lead}>{props.teaser}</p> : null}
        </header>
        {props.image ? (
          <Img
            lang={lang}
            image={props.image}
            preset="default"
            className={styles.detailImage}
            eager
          />
        ) : null}
        <RichText html={props.bodyHtml} />
        {props.authors.length > 0 ? (
          <p>
            <strong>{t('news.authors')}:</strong> {props.authors.join(', ')}
          </p>
        ) : null}
      </article>
    </div>
  );
}
