import { formatDate } from '../../../i18n/format.ts';
import { Img } from '../../../images/picture.tsx';
import { usePage } from '../../../render/page-context.tsx';
import { RichText } from '../../../render/rich-text.server.tsx';
import { Breadcrumbs, type Crumb } from '../components/breadcrumbs.tsx';
import styles from '../components/content.module.css';
import type { ImageDto, NewsRow } from '../content.server.ts';

export function NewsPage(props: { news: NewsRow; crumbs: Crumb[]; image: ImageDto | undefined }) {
  const { t, lang } = usePage();
  const { news } = props;
  return (
    <div className="container">
      <Breadcrumbs items={props.crumbs} />
      <article className={styles.prose}>
        <header className={styles.pageHeader}>
          {news.textType ? <span className={styles.badge}>{news.textType}</span> : null}
          <h1>{news.title}</h1>
          <p>
            {t('news.published')}{' '}
            <time dateTime={news.publishDate.toISOString()}>
              {formatDate(news.publishDate, lang)}
            </time>
          </p>
          {news.teaser ? <p className={styles.lead}>{news.teaser}</p> : null}
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
        <RichText html={news.bodyHtml} />
        {news.authors.length > 0 ? (
          <p>
            <strong>{t('news.authors')}:</strong> {news.authors.join(', ')}
          </p>
        ) : null}
      </article>
    </div>
  );
}
