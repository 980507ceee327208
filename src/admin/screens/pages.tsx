import type { Key } from 'react-aria-components';
import {
  Button,
  Heading,
  Tree,
  TreeItem,
  TreeItemContent,
  type TreeItemContentRenderProps,
} from 'react-aria-components';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { PageTreeRow } from '../../features/content/admin.ts';
import styles from '../admin.module.css';
import { useT } from '../i18n.tsx';
import { ChoiceSelect } from '../ui.tsx';
import { usePageTree } from './page-editor.tsx';

type Node = PageTreeRow & { children: Node[] };

/** The pages as a tree: each under its parent, in the site's order; orphans at the top. */
export function treeOf(rows: readonly PageTreeRow[]): Node[] {
  const nodes = new Map<number, Node>(rows.map((r) => [r.id, { ...r, children: [] }]));
  const roots: Node[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  const order = (list: Node[]) => {
    list.sort((a, b) => a.sortOrder - b.sortOrder || a.path.localeCompare(b.path));
    for (const n of list) order(n.children);
  };
  order(roots);
  return roots;
}

/**
 * The pages of a site and language as their tree (decision 166): arrow keys move in it, right
 * and left open and close a branch, Enter opens the page in the editor. Where the staff member
 * may edit more than one site or language, a choice says which; new pages are made here.
 */
export function PagesScreen() {
  const { t } = useT();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const tree = usePageTree({ site: params.get('site'), lang: params.get('lang') });
  const data = tree.data;
  const roots = data ? treeOf(data.pages) : [];
  const scopeKey = data?.siteId ? `${data.siteId}/${data.lang}` : undefined;
  // The first two levels open to begin with: the home page and the site's sections.
  const expanded: Key[] = roots.flatMap((r) => [r.id, ...r.children.map((c) => c.id)]);
  const stateText = (row: PageTreeRow) =>
    row.state === 'published' ? '' : t(`admin.recipes.state.${row.state}`);
  const render = (node: Node) => (
    <TreeItem
      key={node.id}
      id={node.id}
      textValue={node.title}
      className={styles.treeItem}
      onAction={() => navigate(`/content/pages/${node.id}`)}
    >
      <TreeItemContent>
        {({ hasChildItems, isExpanded }: TreeItemContentRenderProps) => (
          <div className={styles.treeRow}>
            {hasChildItems ? (
              <Button slot="chevron" className={styles.treeChevron}>
                <span aria-hidden="true">{isExpanded ? '▾' : '▸'}</span>
              </Button>
            ) : (
              <span className={styles.treeChevron} aria-hidden="true" />
            )}
            <span className={styles.stack}>
              <span>{node.title || t('admin.recipe.unnamed')}</span>
              <span className={styles.muted}>
                {node.path}
                {stateText(node) ? ` · ${stateText(node)}` : ''}
              </span>
            </span>
          </div>
        )}
      </TreeItemContent>
      {node.children.map(render)}
    </TreeItem>
  );
  return (
    <>
      <Heading level={1}>{t('admin.content.heading')}</Heading>
      <p>{t('admin.pages.lead')}</p>
      {data && data.scopes.length > 1 ? (
        <ChoiceSelect
          name="scope"
          label={t('admin.recipe.where')}
          options={data.scopes.map(
            (s) =>
              [
                `${s.siteId}/${s.lang}`,
                t('admin.recipe.scope', { site: s.siteId, lang: s.lang }),
              ] as const,
          )}
          value={scopeKey}
          onChange={(chosen) => {
            const [site, lang] = chosen.split('/');
            setParams(site && lang ? { site, lang } : {});
          }}
        />
      ) : data?.siteId ? (
        <p>
          {t('admin.recipe.where')}:{' '}
          {t('admin.recipe.scope', { site: data.siteId, lang: data.lang ?? '' })}
        </p>
      ) : null}
      {data?.siteId ? (
        <div className={styles.actions}>
          <Link
            to={`/content/pages/new?site=${data.siteId}&lang=${data.lang}`}
            className={styles.primary}
          >
            {t('admin.pages.new')}
          </Link>
        </div>
      ) : null}
      {tree.isError ? <p role="alert">{t('admin.error.load')}</p> : null}
      <p role="status">{data ? t('admin.content.count', { count: data.pages.length }) : ''}</p>
      <p className={styles.muted}>{t('admin.pages.treeHint')}</p>
      {data ? (
        data.pages.length === 0 ? (
          <p>{t('admin.content.none')}</p>
        ) : (
          <Tree
            key={scopeKey}
            aria-label={t('admin.pages.tree', { site: data.siteId ?? '', lang: data.lang ?? '' })}
            className={styles.tree}
            defaultExpandedKeys={expanded}
          >
            {roots.map(render)}
          </Tree>
        )
      ) : null}
    </>
  );
}
