import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import type {
  AdminNewsRow,
  NewsDocument,
  NewsOpen,
  NEWS_RELEASES_API as NewsReleasesApi,
} from '../../features/content/index.ts';
import { get } from '../api.ts';
import { useT } from '../i18n.tsx';
import { Field, Section, TextAreaField } from '../ui.tsx';
import {
  type EditorKind,
  ItemEditorFrame,
  type Opened,
  OpenedItem,
  reapplyFields,
  useFieldLabelOf,
  useFormFields,
  useItemEditor,
} from './content-editor.tsx';
import { ImageField } from './image-field.tsx';
import { MailingCategories } from './news.tsx';
import { emptyNewsForm, type NewsForm, newsDocumentOf, newsFormOf } from './news-form.ts';
import { RichTextField } from './rich-text-field.tsx';

// The API's address, checked against the feature's constant (only types come from the feature).
export const NEWS_RELEASES_API: typeof NewsReleasesApi = '/api/admin/content/news-releases';

export const newsKind: EditorKind = {
  api: NEWS_RELEASES_API,
  itemKey: 'news-release',
  listKey: 'admin-news',
  idPrefix: 'news',
  presentText: 'admin.newsEditor.present',
  schedule: true,
};

/**
 * A news release in the content editor (decision 172): its title, address, lead, text (the rich
 * text field the page editor uses, held to the site's sanitiser), picture, authors and text type;
 * the mailing categories its publishing mails (now, or at a scheduled time); saving, preview,
 * publishing, versions, the comparison and a stale save's dialog are the content editors' shared
 * parts. A new release is made on the 'Tiedotteet' list.
 */
export function NewsEditorScreen() {
  const { id } = useParams();
  return <OpenedRelease id={Number(id)} />;
}

function OpenedRelease({ id }: { id: number }) {
  return (
    <OpenedItem<NewsOpen>
      kind={newsKind}
      id={id}
      forbidden="admin.newsEditor.forbidden"
      notFound="admin.newsEditor.notFound"
    >
      {(opened) => <Editor {...opened} />}
    </OpenedItem>
  );
}

function Editor({ open, present, scope, initialSaid }: Opened<NewsOpen>) {
  const { t } = useT();
  const id = open.item.id;
  const mailing = useQuery({
    queryKey: ['news-release', id, 'mailing'],
    queryFn: () => get<AdminNewsRow>(`${NEWS_RELEASES_API}/${id}/mailing`),
  });
  const [chosen, setChosen] = useState<string[] | null>(null);
  const row = mailing.data;
  const categories = chosen ?? row?.mailing?.informationTypes ?? (row ? row.informationTypes : []);
  // A mailing that went (or is going) cannot be changed here: publishing mails nobody again.
  const mailingFixed = Boolean(row?.mailing && row.mailing.status === 'sent');
  const mailed = () =>
    mailingFixed
      ? {}
      : { informationTypes: categories, mailingVersion: row?.mailing?.version ?? null };
  const editor = useItemEditor<NewsDocument, NewsForm>({
    kind: newsKind,
    scope,
    open,
    initialSaid,
    emptyForm: emptyNewsForm,
    formOf: newsFormOf,
    documentOf: newsDocumentOf,
    reapply: reapplyFields,
    publishExtra: mailed,
  });
  const { form, change } = editor;
  const fieldLabel = useFieldLabelOf('admin.newsEditor.field');
  const field = useFormFields(form, change, 'admin.newsEditor.field');
  // After a publish or a schedule, the mailing's state (and version) is read again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the head's version is the trigger.
  useEffect(() => {
    void mailing.refetch();
  }, [open.item.publishedVersion, open.head.version]);
  return (
    <ItemEditorFrame
      editor={editor}
      present={present}
      title={open.head.document.title}
      fieldLabel={fieldLabel}
    >
      <Section id="news-content" title={t('admin.newsEditor.content')}>
        <Field {...field('title')} />
        <Field
          {...field('path')}
          description={
            open.item.publishedPath
              ? t('admin.recipe.pathPublishedHint', { path: open.item.publishedPath })
              : t('admin.news.field.pathHint')
          }
        />
        <TextAreaField {...field('teaser')} rows={3} />
        <RichTextField {...field('bodyHtml')} id="news-body" />
        <ImageField
          scope={scope}
          label={t('admin.newsEditor.field.imageId')}
          name="document.imageId"
          imageId={form.imageId}
          onChange={(imageId) => change({ imageId })}
        />
        <TextAreaField
          {...field('authors')}
          description={t('admin.newsEditor.authorsHint')}
          rows={2}
        />
        <Field {...field('textType')} />
      </Section>
      {open.canPublish && row ? (
        <Section id="news-mailing" title={t('admin.newsEditor.mailing')}>
          {row.categories.length === 0 ? (
            <p>{t('admin.news.noCategories')}</p>
          ) : mailingFixed ? (
            <p>{t('admin.newsEditor.mailingSent')}</p>
          ) : (
            <MailingCategories
              legend={t('admin.newsEditor.mailingLegend')}
              categories={row.categories}
              value={categories}
              onChange={setChosen}
            />
          )}
        </Section>
      ) : null}
    </ItemEditorFrame>
  );
}
