import type { ReactNode } from 'react';
import { Heading } from 'react-aria-components';
import { useNavigate, useParams } from 'react-router';
import type { OpenItem, Present } from '../../features/content/admin.ts';
import type { AdminMessageKey } from '../../i18n/admin.ts';
import { useT } from '../i18n.tsx';
import {
  type EditorKind,
  ItemEditorFrame,
  NewItemScope,
  OpenedItem,
  reapplyFields,
  type Scope,
  useFieldLabelOf,
  useItemEditor,
  type ValueText,
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
  return (
    <>
      <Heading level={1} id={`${spec.kind.idPrefix}-heading`} tabIndex={-1}>
        {t(spec.newHeading)}
      </Heading>
      <NewItemScope api={spec.list.api} listKey={spec.list.listKey}>
        {(scope, key) => {
          const empty = emptyForm(scope);
          return empty === undefined ? null : (
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
          );
        }}
      </NewItemScope>
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
      kind={spec.kind}
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
  const { spec, scope, open, Fields, valueText } = props;
  const editor = useItemEditor<Doc, Form>({
    ...props,
    kind: spec.kind,
    formOf: spec.formOf,
    documentOf: spec.documentOf,
    reapply: reapplyFields,
  });
  const fieldLabel = useFieldLabelOf(spec.fieldTexts);
  return (
    <ItemEditorFrame
      editor={editor}
      present={props.present}
      title={open ? spec.titleOf(open.head.document) : t(spec.newHeading)}
      fieldLabel={fieldLabel}
      valueText={valueText}
    >
      <Fields form={editor.form} change={editor.change} scope={scope} open={open !== null} />
    </ItemEditorFrame>
  );
}
