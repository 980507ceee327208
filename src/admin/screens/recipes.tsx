import { Heading } from 'react-aria-components';
import { Link } from 'react-router';
import type { RECIPES_ADMIN_API as RecipesApi, RecipesList } from '../../features/content/admin.ts';
import styles from '../admin.module.css';
import { useT } from '../i18n.tsx';
import { useCan } from '../session.tsx';
import type { GridColumn } from '../ui.tsx';
import { BulkTable } from './bulk-table.tsx';
import { ListPages, TextSearch, useSearchedList } from './shop-parts.tsx';

// The API's address, checked against the feature's constant (only types come from the feature).
export const RECIPES_ADMIN_API: typeof RecipesApi = '/api/admin/content/recipes';

type Row = RecipesList['recipes'][number];

/**
 * The recipes the staff member may edit (decision 162): never published drafts and published
 * recipes, the most recently changed first, searched by name; each opens in the editor.
 */
export function RecipesScreen() {
  const { t, dateTime } = useT();
  const { q, offset, params, list, search } = useSearchedList<RecipesList>(
    'recipes',
    RECIPES_ADMIN_API,
  );
  const canPublish = useCan('content.publish');
  const columns: GridColumn<Row>[] = [
    [
      t('admin.recipes.title'),
      (r) => (
        <span className={styles.stack}>
          <Link to={`/content/recipes/${r.id}`}>{r.title || t('admin.recipe.unnamed')}</Link>
          <span className={styles.muted}>{r.path}</span>
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
      <Heading level={1}>{t('admin.recipes.heading')}</Heading>
      <p>{t('admin.recipes.lead')}</p>
      {list.data && list.data.scopes.length > 0 ? (
        <div className={styles.actions}>
          <Link to="/content/recipes/new" className={styles.primary}>
            {t('admin.recipes.new')}
          </Link>
        </div>
      ) : null}
      <TextSearch
        q={q}
        text={(name) => t(`admin.recipes.${name}`)}
        clearTo="/content/recipes"
        onSearch={search}
      />
      {list.isError ? <p role="alert">{t('admin.error.load')}</p> : null}
      <p role="status">{total === undefined ? '' : t('admin.recipes.count', { count: total })}</p>
      {list.data ? (
        <BulkTable
          label={t('admin.recipes.heading')}
          api={RECIPES_ADMIN_API}
          noun="recipe"
          columns={columns}
          items={list.data.recipes}
          empty={t('admin.recipes.empty')}
          queryKey={['recipes']}
          canPublish={canPublish}
        />
      ) : null}
      {total === undefined ? null : <ListPages offset={offset} total={total} params={params} />}
    </>
  );
}
