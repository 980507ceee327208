import { usePage } from '../../../render/page-context.tsx';
import styles from './content.module.css';

/** Previous and next links for a listing; `?sivu=` is omitted on the first page. */
export function Pagination(props: { page: number; pages: number; basePath: string }) {
  const { t } = usePage();
  if (props.pages <= 1) return null;
  const href = (page: number) => (page <= 1 ? props.basePath : `${props.basePath}?page=${page}`);
  return (
    <nav aria-label={t('content.pagination')} className={styles.pagination}>
      {props.page > 1 ? (
        <a href={href(props.page - 1)} rel="prev">
          {t('content.previousPage')}
        </a>
      ) : (
        <span />
      )}
      <span>{t('content.pageOf', { page: props.page, pages: props.pages })}</span>
      {props.page < props.pages ? (
        <a href={href(props.page + 1)} rel="next">
          {t('content.nextPage')}
        </a>
      ) : (
        <span />
      )}
    </nav>
  );
}
