import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Heading } from 'react-aria-components';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import type {
  PageDocument,
  PageOpen,
  PAGES_ADMIN_API as PagesApi,
  PageTree,
  Present,
} from '../../features/content/admin.ts';
import { isAdminMessageKey } from '../../i18n/admin.ts';
import styles from '../admin.module.css';
import { get } from '../api.ts';
import { useT } from '../i18n.tsx';
import {
  CheckField,
  ChoiceSelect,
  Field,
  LiveStatus,
  NumberField,
  Section,
  TextAreaField,
} from '../ui.tsx';
import {
  type EditorKind,
  type FieldLabel,
  fieldTexts,
  ItemEditorFrame,
  OpenedItem,
  reapplyFields,
  type Scope,
  useFormFields,
  useItemEditor,
} from './content-editor.tsx';
import { ImageField } from './image-field.tsx';
import {
  type BlockRow,
  blockIndexOf,
  blockSchemaOf,
  blockSummary,
  blockTypes,
  emptyPageForm,
  newBlock,
  type PageForm,
  pageDocumentOf,
  pageFormOf,
} from './page-form.ts';
import { moved } from './recipe-form.ts';
import { ObjectFields, SchemaFieldsScope, useKeyLabel } from './schema-fields.tsx';

// The API's address, checked against the feature's constant (only types come from the feature).
export const PAGES_ADMIN_API: typeof PagesApi = '/api/admin/content/pages';

export const pageKind: EditorKind = {
  api: PAGES_ADMIN_API,
  itemKey: 'page',
  listKey: 'pages',
  idPrefix: 'page',
  presentText: 'admin.page.present',
  schedule: true,
};

/** The page tree of a site and language (for the parent's choice and the tree screen). */
export function usePageTree(scope: { site?: string | null; lang?: string | null }) {
  const query = scope.site && scope.lang ? `?site=${scope.site}&lang=${scope.lang}` : '';
  return useQuery({
    queryKey: ['pages', 'tree', scope.site ?? null, scope.lang ?? null],
    queryFn: () => get<PageTree>(`${PAGES_ADMIN_API}/tree${query}`),
  });
}

/**
 * The page editor (decision 166): a new page of a site and language (under a parent), or one
 * opened by id. The page's own fields, then its blocks: added by type, removed, moved up and
 * down by buttons (the focus stays on the moved block's button and its new place is read out),
 * each block's fields drawn from the renderer's own schema of its type. Saving, preview,
 * publishing, versions, the comparison and a stale save's dialog are the content editors'
 * shared parts.
 */
export function PageEditorScreen() {
  const { id } = useParams();
  return id === 'new' ? <NewPage /> : <OpenedPage id={Number(id)} />;
}

function NewPage() {
  const { t } = useT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const site = params.get('site');
  const lang = params.get('lang');
  const parent = Number(params.get('parent'));
  const tree = usePageTree({ site, lang });
  const scope = tree.data?.siteId
    ? { siteId: tree.data.siteId, lang: tree.data.lang ?? 'fi' }
    : null;
  return (
    <>
      <Heading level={1} id="page-heading" tabIndex={-1}>
        {t('admin.page.newHeading')}
      </Heading>
      {tree.isError ? <p role="alert">{t('admin.error.load')}</p> : null}
      {scope ? (
        <>
          <p>{t('admin.recipe.scope', { site: scope.siteId, lang: scope.lang })}</p>
          <Editor
            scope={scope}
            open={null}
            parentId={Number.isInteger(parent) && parent > 0 ? parent : null}
            onCreated={(made, text) =>
              navigate(`/content/pages/${made.item.id}`, { replace: true, state: { said: text } })
            }
          />
        </>
      ) : null}
    </>
  );
}

function OpenedPage({ id }: { id: number }) {
  return (
    <OpenedItem<PageOpen>
      kind={pageKind}
      id={id}
      forbidden="admin.page.forbidden"
      notFound="admin.page.notFound"
    >
      {(opened) => <Editor {...opened} />}
    </OpenedItem>
  );
}

type EditorProps = {
  scope: Scope;
  open: PageOpen | null;
  parentId?: number | null;
  present?: Present[];
  initialSaid?: string | null;
  onCreated?: (made: PageOpen, said: string) => void;
};

/** A field's path as words: `blocks.2.slides.0.text` → `Lohko 3 › Diat › 1 › Teksti`. */
function usePageFieldLabel(): FieldLabel {
  const { t } = useT();
  const keyLabel = useKeyLabel();
  return (path) => {
    const parts = path.split('.');
    const words: string[] = [];
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] ?? '';
      const next = Number(parts[i + 1]);
      if (i === 0) {
        if (part === 'blocks' && Number.isInteger(next)) {
          words.push(t('admin.page.block', { n: next + 1 }));
          i += 1;
        } else {
          const key = `admin.page.field.${part}`;
          words.push(isAdminMessageKey(key) ? t(key) : part);
        }
      } else if (/^\d+$/.test(part)) {
        words.push(String(Number(part) + 1));
      } else {
        words.push(keyLabel(part));
      }
    }
    return words.join(' › ');
  };
}

function Editor(props: EditorProps) {
  const { t } = useT();
  const { scope, open, parentId = null } = props;
  const editor = useItemEditor<PageDocument, PageForm>({
    ...props,
    kind: pageKind,
    emptyForm: () => emptyPageForm(parentId),
    formOf: pageFormOf,
    documentOf: pageDocumentOf,
    reapply: reapplyFields,
  });
  const { form, change } = editor;
  const fieldLabel = usePageFieldLabel();
  const errorBlocks = Object.keys(fieldTexts(editor.error, t)).flatMap((f) => {
    const i = blockIndexOf(f);
    return i === undefined ? [] : [i];
  });
  return (
    <SchemaFieldsScope value={{ scope }}>
      <ItemEditorFrame
        editor={editor}
        present={props.present}
        title={open ? open.head.document.title : t('admin.page.newHeading')}
        fieldLabel={fieldLabel}
      >
        <PageFields
          form={form}
          change={change}
          scope={scope}
          itemId={open?.item.id ?? null}
          publishedPath={open?.item.publishedPath ?? null}
        />
        <Section id="page-blocks" title={t('admin.page.blocks')}>
          <BlockList
            blocks={form.blocks}
            onChange={(blocks) => change({ blocks })}
            errorBlocks={errorBlocks}
            focus={editor.focus}
          />
        </Section>
      </ItemEditorFrame>
    </SchemaFieldsScope>
  );
}

/** The page's own fields: title, address, parent, menu, introduction, picture, search engines. */
function PageFields({
  form,
  change,
  scope,
  itemId,
  publishedPath,
}: {
  form: PageForm;
  change: (next: Partial<PageForm>) => void;
  scope: Scope;
  itemId: number | null;
  publishedPath: string | null;
}) {
  const { t } = useT();
  const field = useFormFields(form, change, 'admin.page.field');
  const tree = usePageTree({ site: scope.siteId, lang: scope.lang });
  // A page cannot be under itself or under a page below it.
  const below = new Set<number>(itemId === null ? [] : [itemId]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of tree.data?.pages ?? []) {
      if (p.parentId !== null && below.has(p.parentId) && !below.has(p.id)) {
        below.add(p.id);
        grew = true;
      }
    }
  }
  const parents = (tree.data?.pages ?? [])
    .filter((p) => !below.has(p.id) && p.state !== 'draft')
    .sort((a, b) => a.path.localeCompare(b.path));
  return (
    <>
      <Section id="page-content" title={t('admin.page.content')}>
        <Field {...field('title')} />
        <Field
          {...field('path')}
          description={
            publishedPath
              ? t('admin.recipe.pathPublishedHint', { path: publishedPath })
              : t('admin.page.pathHint')
          }
        />
        <ChoiceSelect
          key={`parent-${parents.length}`}
          name="document.parentId"
          label={t('admin.page.field.parentId')}
          options={[
            ['none', t('admin.page.parentNone')],
            ...parents.map((p) => [String(p.id), `${p.title} (${p.path})`] as const),
          ]}
          value={form.parentId === null ? 'none' : String(form.parentId)}
          onChange={(chosen) => change({ parentId: chosen === 'none' ? null : Number(chosen) })}
        />
        <p>
          {t('admin.page.field.type')}: {form.type}
        </p>
        <Field {...field('navLabel')} description={t('admin.page.navLabelHint')} />
        <CheckField isSelected={form.showInNav} onChange={(showInNav) => change({ showInNav })}>
          {t('admin.page.field.showInNav')}
        </CheckField>
        <ChoiceSelect
          name="document.navArea"
          label={t('admin.page.field.navArea')}
          options={[
            ['bottom', t('admin.page.navArea.bottom')],
            ['top', t('admin.page.navArea.top')],
          ]}
          value={form.navArea}
          onChange={(navArea) => change({ navArea: navArea === 'top' ? 'top' : 'bottom' })}
        />
        <NumberField {...field('sortOrder')} description={t('admin.page.sortOrderHint')} />
        <TextAreaField {...field('teaser')} rows={3} />
        <ImageField
          scope={scope}
          label={t('admin.page.field.teaserImageId')}
          name="document.teaserImageId"
          imageId={form.teaserImageId}
          onChange={(teaserImageId) => change({ teaserImageId })}
        />
      </Section>
      <Section id="page-seo" title={t('admin.page.seo')}>
        <Field {...field('seoTitle')} />
        <TextAreaField {...field('seoDescription')} rows={3} />
      </Section>
    </>
  );
}

/** One block: its heading, its edit, move and remove buttons, and its fields when open. */
function BlockItem(props: {
  row: BlockRow;
  index: number;
  count: number;
  name: string;
  isOpen: boolean;
  onToggle: () => void;
  onMove: (by: -1 | 1, way: 'up' | 'down') => void;
  onRemove: () => void;
  onValue: (value: Record<string, unknown>) => void;
}) {
  const { t } = useT();
  const { row, index, count, name, isOpen, onToggle, onMove, onRemove, onValue } = props;
  const schema = blockSchemaOf(String(row.value.type));
  return (
    <li className={styles.blockRow}>
      <section aria-labelledby={`block-title-${row.key}`}>
        <Heading
          level={3}
          id={`block-title-${row.key}`}
          tabIndex={-1}
          className={styles.blockTitle}
        >
          {t('admin.page.blockTitle', { n: index + 1, count, name })}
        </Heading>
        <div className={styles.inlineActions}>
          <Button
            className={styles.secondary}
            aria-expanded={isOpen}
            aria-controls={isOpen ? `block-fields-${row.key}` : undefined}
            aria-label={t(isOpen ? 'admin.page.closeBlock' : 'admin.page.editBlock', {
              n: index + 1,
            })}
            onPress={onToggle}
          >
            {t(isOpen ? 'admin.page.close' : 'admin.page.edit')}
          </Button>
          <Button
            id={`block-up-${row.key}`}
            className={styles.secondary}
            aria-label={t('admin.page.moveBlockUp', { n: index + 1 })}
            onPress={() => onMove(-1, 'up')}
          >
            {t('admin.recipe.moveUp')}
          </Button>
          <Button
            id={`block-down-${row.key}`}
            className={styles.secondary}
            aria-label={t('admin.page.moveBlockDown', { n: index + 1 })}
            onPress={() => onMove(1, 'down')}
          >
            {t('admin.recipe.moveDown')}
          </Button>
          <Button
            className={styles.secondary}
            aria-label={t('admin.page.removeBlock', { n: index + 1 })}
            onPress={onRemove}
          >
            {t('admin.recipe.remove')}
          </Button>
        </div>
        {isOpen ? (
          <div id={`block-fields-${row.key}`}>
            {schema ? (
              <ObjectFields
                schema={schema}
                value={row.value}
                onChange={onValue}
                name={`document.blocks.${index}`}
                idPrefix={`block-${row.key}`}
              />
            ) : (
              <p>{t('admin.page.unknownBlock')}</p>
            )}
          </div>
        ) : null}
      </section>
    </li>
  );
}

/**
 * The page's blocks in order. Each is shown by its type and a line of its content; its fields
 * open with its edit button. The move buttons keep the focus on the moved block's button and
 * read out its new place; a new block opens with the focus on its heading.
 */
function BlockList({
  blocks,
  onChange,
  errorBlocks,
  focus,
}: {
  blocks: BlockRow[];
  onChange: (blocks: BlockRow[]) => void;
  /** The blocks with errors: they are open. */
  errorBlocks: number[];
  focus: (id: string) => void;
}) {
  const { t } = useT();
  const [openKeys, setOpenKeys] = useState<Set<string>>(new Set());
  const [announce, setAnnounce] = useState<string | null>(null);
  const [adding, setAdding] = useState('rich-text');
  const typeLabel = (type: string) => {
    const key = `admin.block.type.${type}`;
    return isAdminMessageKey(key) ? t(key) : type;
  };
  const nameOf = (row: BlockRow) => {
    const summary = blockSummary(row.value);
    const type = typeLabel(String(row.value.type));
    return summary ? `${type}: ${summary}` : type;
  };
  const said = (text: string, id: string) => {
    setAnnounce(text);
    focus(id);
  };
  const toggle = (key: string) =>
    setOpenKeys((keys) => {
      const next = new Set(keys);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  return (
    <>
      {blocks.length === 0 ? <p>{t('admin.page.noBlocks')}</p> : null}
      <ol className={styles.plainList} aria-label={t('admin.page.blockList')}>
        {blocks.map((row, i) => {
          const isOpen = openKeys.has(row.key) || errorBlocks.includes(i);
          const name = nameOf(row);
          const move = (by: -1 | 1, way: 'up' | 'down') => {
            const next = moved(blocks, i, by);
            onChange(next);
            said(
              t('admin.recipe.moved', {
                name: t('admin.page.blockNamed', { name: typeLabel(String(row.value.type)) }),
                position: next.indexOf(row) + 1,
                count: next.length,
              }),
              `block-${way}-${row.key}`,
            );
          };
          return (
            <BlockItem
              key={row.key}
              row={row}
              index={i}
              count={blocks.length}
              name={name}
              isOpen={isOpen}
              onToggle={() => toggle(row.key)}
              onMove={move}
              onRemove={() => {
                onChange(blocks.filter((_, j) => j !== i));
                said(t('admin.recipe.removed', { name }), 'page-add-block');
              }}
              onValue={(value) =>
                onChange(blocks.map((b) => (b.key === row.key ? { ...b, value } : b)))
              }
            />
          );
        })}
      </ol>
      <LiveStatus text={announce} />
      <div className={styles.filters}>
        <ChoiceSelect
          name="blockType"
          label={t('admin.page.blockType')}
          options={blockTypes.map(([type]) => [type, typeLabel(type)] as const)}
          value={adding}
          onChange={setAdding}
        />
        <Button
          id="page-add-block"
          className={styles.secondary}
          onPress={() => {
            const added = newBlock(adding);
            onChange([...blocks, added]);
            setOpenKeys((keys) => new Set([...keys, added.key]));
            said(
              t('admin.page.blockAdded', {
                name: typeLabel(adding),
                position: blocks.length + 1,
                count: blocks.length + 1,
              }),
              `block-title-${added.key}`,
            );
          }}
        >
          {t('admin.page.addBlock')}
        </Button>
      </div>
    </>
  );
}
