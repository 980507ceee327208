import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { Heading } from 'react-aria-components';
import { useNavigate, useParams } from 'react-router';
import type { KindList, OpenItem, Present } from '../../features/content/admin.ts';
import { type AdminMessageKey, isAdminMessageKey } from '../../i18n/admin.ts';
import { get } from '../api.ts';
import { useT } from '../i18n.tsx';
import { AdminForm, ChoiceSelect, ErrorSummary } from '../ui.tsx';
import {
  Compare,
  Conflict,
  EditorButtons,
  type EditorKind,
  type FieldLabel,
  fieldTexts,
  ItemHeading,
  OpenedItem,
  reapplyFields,
  SaidStatus,
  type Scope,
  useItemEditor,
  type ValueText,
  Versions,
} from './content-editor.tsx';
import type { ListKind } from './kind-lists.tsx';

/**
 * The frame of the product, job listing and school material editors (decision 171): a new item
 * of a site and language chosen among the grants, or one opened by id; the item's heading, a
 * stale save's dialog, the form with the kind's own fields, save/preview/publish, the versions
 * and the comparison — the content editors' shared parts of `content-editor.tsx`.
 */

/** What a kind's editor brings to the frame. */
export interface KindEditor<Doc, Form> {
  kind: EditorKind;
  list: ListKind;
  /** Its texts: the new item's heading, a refused and a missing item, its fields' labels. */
  newHeading: AdminMessageKey;
  forbidden: AdminMessageKey;
  notFound: AdminMessageKey;
  /** The prefix of its fields' labels (`admin.product.field`): `<prefix>.<top-level field>`. */
  fieldTexts: string;
  titleOf: (doc: Doc) => string;
  formOf: (doc: Doc) => Form;
  documentOf: (form: Form) => { document: Doc } | { errors: Record<string, string> };
}

/** The form's fields of a kind, given the form, its change and the item's site and language. */
export type FieldsOf<Form> = (props: {
  form: Form;
  change: (next: Partial<Form>) => void;
  scope: Scope;
  open: boolean;
}) => ReactNode;

/** A field's path as words: `nutrition.fat` → `Ravintosisältö › Rasva`, `imageIds.1` → `Kuvat › 2`. */
function useKindFieldLabel(prefix: string): FieldLabel {
  const { t } = useT();
  return (path) =>
    path
      .split('.')
      .map((part, i) => {
        if (/^\d+$/.test(part)) return String(Number(part) + 1);
        const key = i === 0 ? `${prefix}.${part}` : `${prefix}.${path.split('.')[0]}.${part}`;
        return isAdminMessageKey(key) ? t(key) : part;
      })
      .join(' › ');
}

/** A new item: the site and language to make it in (among the grants), then its editor. */
export function NewKindItem<Doc extends object, Form>({
  spec,
  emptyForm,
  Fields,
  valueText,
}: {
  spec: KindEditor<Doc, Form>;
  emptyForm: (scope: Scope) => Form | undefined;
  Fields: FieldsOf<Form>;
  valueText?: ValueText;
}) {
  const { t } = useT();
  const navigate = useNavigate();
  const list = useQuery({
    queryKey: [spec.list.listKey, 'scopes'],
    queryFn: () => get<KindList>(`${spec.list.api}?offset=0`),
  });
  const scopes = list.data?.scopes ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  const key = chosen ?? (scopes[0] ? `${scopes[0].siteId}/${scopes[0].lang}` : null);
  const scope = scopes.find((s) => `${s.siteId}/${s.lang}` === key);
  const empty = scope ? emptyForm(scope) : undefined;
  return (
    <>
      <Heading level={1} id={`${spec.kind.idPrefix}-heading`} tabIndex={-1}>
        {t(spec.newHeading)}
      </Heading>
      {list.isError ? <p role="alert">{t('admin.error.load')}</p> : null}
      {scopes.length > 1 ? (
        <ChoiceSelect
          name="scope"
          label={t('admin.recipe.where')}
          options={scopes.map((s) => [`${s.siteId}/${s.lang}`, `${s.siteId} (${s.lang})`] as const)}
          value={key ?? undefined}
          onChange={setChosen}
        />
      ) : scope ? (
        <p>
          {t('admin.recipe.where')}:{' '}
          {t('admin.recipe.scope', { site: scope.siteId, lang: scope.lang })}
        </p>
      ) : null}
      {scope && empty !== undefined ? (
        <KindItemEditor
          key={key}
          spec={spec}
          scope={scope}
          open={null}
          emptyForm={() => empty}
          Fields={Fields}
          valueText={valueText}
          onCreated={(made, said) =>
            navigate(`${spec.list.base}/${made.item.id}`, { replace: true, state: { said } })
          }
        />
      ) : null}
    </>
  );
}

/** A kind's editor screen: a new item at `…/new`, else the item of the address's id. */
export function kindEditorScreen<Doc extends object, Form>(
  spec: KindEditor<Doc, Form>,
  emptyForm: (scope: Scope) => Form | undefined,
  Fields: FieldsOf<Form>,
  valueText?: ValueText,
) {
  const extra = valueText ? { valueText } : {};
  return function KindEditorScreen() {
    const { id } = useParams();
    return id === 'new' ? (
      <NewKindItem spec={spec} emptyForm={emptyForm} Fields={Fields} {...extra} />
    ) : (
      <OpenedKindItem
        spec={spec}
        id={Number(id)}
        emptyForm={emptyForm}
        Fields={Fields}
        {...extra}
      />
    );
  };
}

/** An item opened by id, with who else has it open. */
export function OpenedKindItem<Doc extends object, Form>({
  spec,
  id,
  emptyForm,
  Fields,
  valueText,
}: {
  spec: KindEditor<Doc, Form>;
  id: number;
  emptyForm: (scope: Scope) => Form | undefined;
  Fields: FieldsOf<Form>;
  valueText?: ValueText;
}) {
  return (
    <OpenedItem<OpenItem<Doc>>
      api={spec.kind.api}
      itemKey={spec.kind.itemKey}
      id={id}
      forbidden={spec.forbidden}
      notFound={spec.notFound}
    >
      {({ open, present, scope, initialSaid }) => (
        <KindItemEditor
          spec={spec}
          scope={scope}
          open={open}
          present={present}
          emptyForm={() => emptyForm(scope) as Form}
          Fields={Fields}
          valueText={valueText}
          initialSaid={initialSaid}
        />
      )}
    </OpenedItem>
  );
}

function KindItemEditor<Doc extends object, Form>(props: {
  spec: KindEditor<Doc, Form>;
  scope: Scope;
  open: OpenItem<Doc> | null;
  present?: Present[];
  initialSaid?: string | null;
  onCreated?: (made: OpenItem<Doc>, said: string) => void;
  emptyForm: () => Form;
  Fields: FieldsOf<Form>;
  valueText?: ValueText | undefined;
}) {
  const { t } = useT();
  const { spec, scope, open, present = [], initialSaid, Fields, valueText } = props;
  const { kind } = spec;
  const editor = useItemEditor<Doc, Form>({
    kind,
    scope,
    open,
    initialSaid,
    onCreated: props.onCreated,
    emptyForm: props.emptyForm,
    formOf: spec.formOf,
    documentOf: spec.documentOf,
    reapply: reapplyFields,
  });
  const { form, change, said, conflict } = editor;
  const fieldLabel = useKindFieldLabel(spec.fieldTexts);
  useEffect(() => {
    if (initialSaid) document.getElementById(`${kind.idPrefix}-heading`)?.focus();
  }, [initialSaid, kind.idPrefix]);
  const title = open ? spec.titleOf(open.head.document) : t(spec.newHeading);
  return (
    <>
      {open ? <ItemHeading kind={kind} open={open} present={present} title={title} /> : null}
      <SaidStatus said={said} />
      {conflict && open ? (
        <Conflict
          kind={kind}
          itemId={open.item.id}
          basedOn={editor.basedOn}
          conflict={conflict}
          fieldLabel={fieldLabel}
          valueText={valueText}
          onReapply={editor.reapplyOn}
        />
      ) : null}
      <ErrorSummary error={editor.error} />
      <AdminForm
        errors={fieldTexts(editor.error, t)}
        onSubmit={(event) => {
          event.preventDefault();
          // Only its own submit: a dialog's form (a portal) must never save the item.
          if (event.target === event.currentTarget) void editor.save();
        }}
        aria-label={title}
      >
        <Fields form={form} change={change} scope={scope} open={open !== null} />
        <EditorButtons
          kind={kind}
          open={open}
          preview={editor.preview}
          onPreview={() => void editor.makePreview()}
          onPublish={() => void editor.publish()}
        />
      </AdminForm>
      {open ? (
        <>
          <Versions kind={kind} open={open} onRestore={(version) => void editor.restore(version)} />
          <Compare kind={kind} open={open} fieldLabel={fieldLabel} valueText={valueText} />
        </>
      ) : null}
    </>
  );
}
