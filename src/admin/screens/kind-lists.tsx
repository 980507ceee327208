import { Heading } from 'react-aria-components';
import { Link } from 'react-router';
import type {
  JOBS_ADMIN_API as JobsApi,
  KindList,
  MAP_REGIONS_ADMIN_API as MapApi,
  SCHOOL_MATERIALS_ADMIN_API as MaterialsApi,
  PRODUCTS_ADMIN_API as ProductsApi,
  TIMELINE_ADMIN_API as TimelineApi,
} from '../../features/content/admin.ts';
import type { AdminMessageKey } from '../../i18n/admin.ts';
import styles from '../admin.module.css';
import { useT } from '../i18n.tsx';
import { type Column, ListPages, RowsTable, TextSearch, useSearchedList } from './shop-parts.tsx';

// The APIs' addresses, checked against the feature's constants (only types come from the feature).
export const PRODUCTS_ADMIN_API: typeof ProductsApi = '/api/admin/content/products';
export const JOBS_ADMIN_API: typeof JobsApi = '/api/admin/content/jobs';
export const SCHOOL_MATERIALS_ADMIN_API: typeof MaterialsApi =
  '/api/admin/content/school-materials';
export const TIMELINE_ADMIN_API: typeof TimelineApi = '/api/admin/content/timeline';
export const MAP_REGIONS_ADMIN_API: typeof MapApi = '/api/admin/content/map-regions';

type Row = KindList['rows'][number];

/** One kind's list screen: where its API and screens are and what its texts are called. */
export interface ListKind {
  api: string;
  /** The query cache's key of the kind's lists. */
  listKey: string;
  /** The screens' address (`/content/products`); an item is `<base>/<id>`, a new one `<base>/new`. */
  base: string;
  /** The prefix of the kind's texts (`admin.products`): heading, lead, new, count, empty, … */
  texts:
    | 'admin.products'
    | 'admin.jobs'
    | 'admin.materials'
    | 'admin.timelineYears'
    | 'admin.mapRegions';
}

const listKind = (api: string, listKey: string, base: string, texts: ListKind['texts']) => ({
  api,
  listKey,
  base: `/content/${base}`,
  texts,
});
export const productsList = listKind(PRODUCTS_ADMIN_API, 'products', 'products', 'admin.products');
export const jobsList = listKind(JOBS_ADMIN_API, 'jobs', 'jobs', 'admin.jobs');
export const materialsList = listKind(
  SCHOOL_MATERIALS_ADMIN_API,
  'school-materials',
  'school-materials',
  'admin.materials',
);
export const timelineList = listKind(
  TIMELINE_ADMIN_API,
  'timeline-years',
  'timeline',
  'admin.timelineYears',
);
export const mapList = listKind(MAP_REGIONS_ADMIN_API, 'map-regions', 'map', 'admin.mapRegions');

/**
 * The items of a kind the staff member may edit (decision 171): never published drafts and
 * published ones, the most recently changed first, searched by name; each opens in its editor.
 */
function KindListScreen({ kind }: { kind: ListKind }) {
  const { t, dateTime } = useT();
  const text = (name: string) => `${kind.texts}.${name}` as AdminMessageKey;
  const { q, offset, params, list, search } = useSearchedList<KindList>(kind.listKey, kind.api);
  const columns: Column<Row>[] = [
    [
      t(text('title')),
      (r) => (
        <span className={styles.stack}>
          <Link to={`${kind.base}/${r.id}`}>{r.title || t('admin.recipe.unnamed')}</Link>
          {r.detail ? <span className={styles.muted}>{r.detail}</span> : null}
        </span>
      ),
    ],
    [t('admin.recipes.site'), (r) => r.siteId],
    [t('admin.recipes.lang'), (r) => r.lang],
    [t('admin.recipes.state'), (r) => t(`admin.recipes.state.${r.state}`)],
    [t('admin.recipes.updated'), (r) => dateTime(r.updatedAt)],
  ];
  const total = list.data?.total;
  return (
    <>
      <Heading level={1}>{t(text('heading'))}</Heading>
      <p>{t(text('lead'))}</p>
      {list.data && list.data.scopes.length > 0 ? (
        <div className={styles.actions}>
          <Link to={`${kind.base}/new`} className={styles.primary}>
            {t(text('new'))}
          </Link>
        </div>
      ) : null}
      <TextSearch
        q={q}
        text={(name) =>
          name === 'apply' || name === 'clear' ? t(`admin.recipes.${name}`) : t(text(name))
        }
        clearTo={kind.base}
        onSearch={search}
      />
      {list.isError ? <p role="alert">{t('admin.error.load')}</p> : null}
      <p role="status">{total === undefined ? '' : t(text('count'), { count: total })}</p>
      {list.data ? (
        <RowsTable
          caption={t(text('heading'))}
          hiddenCaption
          columns={columns}
          rows={list.data.rows}
          rowKey={(r) => r.id}
          empty={t(text('empty'))}
        />
      ) : null}
      {total === undefined ? null : <ListPages offset={offset} total={total} params={params} />}
    </>
  );
}

export const ProductsScreen = () => <KindListScreen kind={productsList} />;
export const JobsScreen = () => <KindListScreen kind={jobsList} />;
export const SchoolMaterialsScreen = () => <KindListScreen kind={materialsList} />;
export const TimelineScreen = () => <KindListScreen kind={timelineList} />;
export const MapRegionsScreen = () => <KindListScreen kind={mapList} />;
