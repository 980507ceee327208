import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Button, Heading } from 'react-aria-components';
import { useLocation } from 'react-router';
import {
  diffDocuments,
  type FieldChange,
  type OpenItem,
  PRESENCE_HEARTBEAT_MS,
  type Present,
  type VersionMeta,
} from '../../features/content/admin.ts';
import { type AdminMessageKey, isAdminMessageKey } from '../../i18n/admin.ts';
import styles from '../admin.module.css';
import { ApiError, del, get, post, put } from '../api.ts';
import { useT } from '../i18n.tsx';
import { AdminForm, ChoiceSelect, ErrorSummary, Section } from '../ui.tsx';
import { SchedulePanel } from './schedule-panel.tsx';
import { formErrors, RowsTable } from './shop-parts.tsx';

/**
 * What every content editor shares (decisions 162 and 166), whatever the kind of its document:
 * the editor's state and its actions on the server (save, preview, publish, restore, the stale
 * save's conflict and "apply my changes"), who else has the item open, the item's heading, the
 * versions with restore, the comparison of two versions, and the save/preview/publish bar, all
 * drawn around a kind's fields by `ItemEditorFrame`; a new item's site and language; its fields
 * bound to the form by their keys. A kind brings its address, its form and how the form becomes
 * a document.
 */

export type Scope = { siteId: string; lang: string };
type Said = { text: string; alert: boolean } | null;
export type Version<Doc> = VersionMeta & { document: Doc };

/** The kind of content an editor edits: where its routes are and what its screens are called. */
export interface EditorKind {
  /** The kind's API (`/api/admin/content/recipes`). */
  api: string;
  /** The query cache's key of one item (`recipe`) and of the kind's lists (`recipes`). */
  itemKey: string;
  listKey: string;
  /** The prefix of the editor's element ids (`recipe-heading`, `recipe-save`, …). */
  idPrefix: string;
  /** "Also editing this …: {names}." */
  presentText: AdminMessageKey;
  /** False for a kind without a page of its own (a job listing): no preview (decision 171). */
  preview?: boolean;
  /** True for a kind published and taken off the site on a schedule too (decision 167). */
  schedule?: boolean;
}

/** The path of a changed field as words (each kind names its own fields). */
export type FieldLabel = (path: string) => string;
/** A changed value as text, when a kind shows it otherwise than as it is (a tag id by name). */
export type ValueText = (change: FieldChange, value: FieldChange['before']) => string | undefined;

/** The last parts of the message keys under `prefix` (`admin.page.field` → `title`, …). */
type KeysUnder<P extends string> = AdminMessageKey extends infer M
  ? M extends `${P}.${infer K}`
    ? K
    : never
  : never;

/**
 * A kind's form fields by their key, for a field's props: sent as `document.<key>` (its errors
 * are the server's for that name), labelled by the text `<texts>.<key>`, showing the form's
 * value and changing it.
 */
export function useFormFields<Form, P extends string>(
  form: Form,
  change: (next: Partial<Form>) => void,
  texts: P,
) {
  const { t } = useT();
  return <K extends keyof Form & KeysUnder<P>>(key: K) => ({
    name: `document.${key}`,
    label: t(`${texts}.${key}` as AdminMessageKey),
    value: form[key],
    onChange: (value: Form[K]) => change({ [key]: value } as unknown as Partial<Form>),
  });
}

/**
 * A field's path as words by the texts under `prefix` (`admin.product.field`): `nutrition.fat` →
 * `Ravintosisältö › Rasva`, `imageIds.1` → `Kuvat › 2`.
 */
export function useFieldLabelOf(prefix: string): FieldLabel {
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

/** Says every 20 seconds that this staff member has the item open; answers who else has. */
export function usePresence(api: string, id: number, ready: boolean): Present[] {
  const [present, setPresent] = useState<Present[]>([]);
  useEffect(() => {
    if (!ready) return;
    let stopped = false;
    const url = `${api}/${id}/presence`;
    const beat = async () => {
      try {
        const answer = await put<{ present: Present[] }>(url);
        if (!stopped) setPresent(answer.present);
      } catch {
        // A missed beat: the next one tries again.
      }
    };
    void beat();
    const timer = setInterval(beat, PRESENCE_HEARTBEAT_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
      void del(url).catch(() => undefined);
    };
  }, [api, id, ready]);
  return present;
}

export type Conflicted<Doc> = { current: Version<Doc>; mine: Doc };

export interface ItemEditorOptions<Doc, Form> {
  kind: EditorKind;
  scope: Scope;
  open: OpenItem<Doc> | null;
  initialSaid?: string | null | undefined;
  onCreated?: ((made: OpenItem<Doc>, said: string) => void) | undefined;
  emptyForm: () => Form;
  formOf: (doc: Doc) => Form;
  /** The document the form stands for, or the errors (message keys by field) that stop it. */
  documentOf: (form: Form) => { document: Doc } | { errors: Record<string, string> };
  /** The editor's changes made again on the newest version (`base` is where they started). */
  reapply: (base: Doc, mine: Doc, newest: Doc) => Doc;
  /** What a kind's publish sends beside the version (a news release's mailing categories). */
  publishExtra?: () => Record<string, unknown>;
}

/**
 * The editor's state and its actions on the server: the form, the version it was started on,
 * whether it has unsaved changes, what the last action said, a stale save's conflict, the
 * preview link.
 */
export function useItemEditor<Doc, Form>(options: ItemEditorOptions<Doc, Form>) {
  const { kind, scope, open, initialSaid = null, onCreated } = options;
  const { t } = useT();
  const client = useQueryClient();
  const { form, basedOn, dirty, change, reset } = useFormOf(options);
  const [preview, setPreview] = useState<{ url: string; version: number } | null>(null);
  const setFocusId = useFocusSoon();
  // A made item's first save opens its editor with the heading focused, read out with the said.
  useEffect(() => {
    if (initialSaid) document.getElementById(`${kind.idPrefix}-heading`)?.focus();
  }, [initialSaid, kind.idPrefix]);
  const { act, error, setError, said, setSaid, conflict, setConflict } = useActions<Doc>(
    initialSaid,
    () => {
      const mine = options.documentOf(form);
      return 'document' in mine ? mine.document : undefined;
    },
  );
  const tell = (text: string) => setSaid({ text, alert: false });

  /** The server's newest state in place of the form (after a save, publish or restore). */
  const loaded = (answer: OpenItem<Doc>) => {
    client.setQueryData([kind.itemKey, answer.item.id], answer);
    void client.invalidateQueries({ queryKey: [kind.listKey] });
    reset(answer.head.document, answer.head.version);
    setConflict(null);
    // A link shows the version it was made for; after a change it would mislead.
    setPreview(null);
  };
  /** Whether the form has unsaved changes (then preview, publish and restore wait). */
  const unsaved = () => {
    if (dirty) setSaid({ text: t('admin.recipe.unsaved'), alert: true });
    return dirty;
  };
  const itemUrl = (path = '') => `${kind.api}/${open?.item.id}${path}`;
  /** An action on the item as saved: it waits while the form has unsaved changes. */
  const whenSaved = (work: (item: OpenItem<Doc>) => Promise<void>) =>
    open && !unsaved() ? act(() => work(open)) : undefined;

  const save = () =>
    act(async () => {
      const made = options.documentOf(form);
      if ('errors' in made) {
        setError(formErrors(made.errors));
        return;
      }
      if (!open) {
        const answer = await post<OpenItem<Doc>>(
          `${kind.api}?site=${scope.siteId}&lang=${scope.lang}`,
          { document: made.document },
        );
        client.setQueryData([kind.itemKey, answer.item.id], answer);
        void client.invalidateQueries({ queryKey: [kind.listKey] });
        onCreated?.(answer, t('admin.recipe.saved', { version: answer.head.version }));
        return;
      }
      const answer = await put<OpenItem<Doc>>(itemUrl(), { basedOn, document: made.document });
      loaded(answer);
      tell(t('admin.recipe.saved', { version: answer.head.version }));
    });
  const makePreview = () =>
    whenSaved(async (item) => {
      const version = item.head.version;
      const link = await post<{ url: string }>(itemUrl('/preview'), { version });
      setPreview({ url: link.url, version });
      tell(t('admin.recipe.previewReady', { version, minutes: 15 }));
      setFocusId(`${kind.idPrefix}-preview-link`);
    });
  const publish = () =>
    whenSaved(async (item) => {
      const answer = await post<OpenItem<Doc>>(itemUrl('/publish'), {
        ...options.publishExtra?.(),
        version: item.head.version,
      });
      loaded(answer);
      tell(t('admin.recipe.published', { version: answer.head.version }));
    });
  const restore = (version: number) =>
    whenSaved(async (item) => {
      const answer = await post<OpenItem<Doc>>(itemUrl('/restore'), {
        version,
        basedOn: item.head.version,
      });
      loaded(answer);
      tell(t('admin.recipe.restored', { from: version, version: answer.head.version }));
      setFocusId(`${kind.idPrefix}-heading`);
    });
  /** The editor's changes made again on the newest version, which the form is now based on. */
  const reapplyOn = (base: Doc) => {
    if (!conflict) return;
    const { current } = conflict;
    reset(options.reapply(base, conflict.mine, current.document), current.version, true);
    setConflict(null);
    tell(t('admin.recipe.reapplied', { version: conflict.current.version }));
    setFocusId(`${kind.idPrefix}-save`);
  };
  return {
    kind,
    open,
    publishExtra: options.publishExtra,
    form,
    change,
    basedOn,
    error,
    said,
    conflict,
    preview,
    focus: setFocusId,
    save,
    makePreview,
    publish,
    restore,
    reapplyOn,
  };
}

/**
 * The form, the version it is based on and whether it has unsaved changes; `reset` puts a
 * version's document in it (the server's newest: clean; changes made again on it: `changed`).
 */
function useFormOf<Doc, Form>(options: ItemEditorOptions<Doc, Form>) {
  const { open } = options;
  const [form, setForm] = useState<Form>(() =>
    open ? options.formOf(open.head.document) : options.emptyForm(),
  );
  const [basedOn, setBasedOn] = useState(open?.head.version ?? 0);
  const [dirty, setDirty] = useState(false);
  const change = (next: Partial<Form> | ((form: Form) => Form)) => {
    setForm((f) => (typeof next === 'function' ? next(f) : { ...f, ...next }));
    setDirty(true);
  };
  const reset = (document: Doc, version: number, changed = false) => {
    setForm(options.formOf(document));
    setBasedOn(version);
    setDirty(changed);
  };
  return { form, basedOn, dirty, change, reset };
}

/** Focuses the element of an id after the next render, when it is there. */
function useFocusSoon() {
  const [focusId, setFocusId] = useState<string | null>(null);
  useEffect(() => {
    if (!focusId) return;
    document.getElementById(focusId)?.focus();
    setFocusId(null);
  }, [focusId]);
  return setFocusId;
}

/**
 * One action on the server at a time, with what it said and its error; a stale one (409 with the
 * newest version) is a conflict beside the editor's own document (`mine`; none: the newest).
 */
function useActions<Doc>(initialSaid: string | null, mine: () => Doc | undefined) {
  const [error, setError] = useState<unknown>(null);
  const [said, setSaid] = useState<Said>(initialSaid ? { text: initialSaid, alert: false } : null);
  const [conflict, setConflict] = useState<Conflicted<Doc> | null>(null);
  const pending = useRef(false);
  const act = async (work: () => Promise<void>) => {
    if (pending.current) return;
    pending.current = true;
    setError(null);
    setSaid(null);
    try {
      await work();
    } catch (e) {
      if (e instanceof ApiError && e.status === 409 && e.problem.current) {
        const current = e.problem.current as Version<Doc>;
        setConflict({ current, mine: mine() ?? current.document });
      } else setError(e);
    } finally {
      pending.current = false;
    }
  };
  return { act, error, setError, said, setSaid, conflict, setConflict };
}

export type ItemEditor<Doc, Form> = ReturnType<typeof useItemEditor<Doc, Form>>;

/**
 * An editor around a kind's own fields (its `children`): the item's heading, what the last action
 * said, a stale save's conflict, the errors, the form with save/preview/publish, the schedule
 * (for a kind that has one, with the right to publish), the versions and the comparison. `title`
 * is the item's name (a new item's heading until it is saved).
 */
export function ItemEditorFrame<Doc extends object, Form>({
  editor,
  present = [],
  title,
  fieldLabel,
  valueText,
  children,
}: {
  editor: ItemEditor<Doc, Form>;
  present?: Present[] | undefined;
  title: string;
  fieldLabel: FieldLabel;
  valueText?: ValueText | undefined;
  children: ReactNode;
}) {
  const { t } = useT();
  const { kind, open, conflict } = editor;
  return (
    <>
      {open ? <ItemHeading kind={kind} open={open} present={present} title={title} /> : null}
      <SaidStatus said={editor.said} />
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
        {children}
        <EditorButtons
          kind={kind}
          open={open}
          preview={editor.preview}
          onPreview={() => void editor.makePreview()}
          onPublish={() => void editor.publish()}
        />
      </AdminForm>
      {kind.schedule && open?.canPublish ? (
        <SchedulePanel
          base={kind.api}
          itemId={open.item.id}
          version={open.head.version}
          live={open.item.publishedPath !== null}
          reload={[[kind.itemKey, open.item.id], [kind.listKey]]}
          publishExtra={editor.publishExtra?.()}
        />
      ) : null}
      {open ? (
        <>
          <Versions kind={kind} open={open} onRestore={(version) => void editor.restore(version)} />
          <Compare kind={kind} open={open} fieldLabel={fieldLabel} valueText={valueText} />
        </>
      ) : null}
    </>
  );
}

/**
 * The editor's changes made again on the newest version: each top-level field the editor changed
 * from the version they started on takes their value; every other field keeps the newest one's.
 */
export function reapplyFields<Doc extends object>(base: Doc, mine: Doc, newest: Doc): Doc {
  const merged = { ...newest } as Record<string, unknown>;
  for (const key of Object.keys(mine) as (keyof Doc & string)[]) {
    if (JSON.stringify(mine[key]) !== JSON.stringify(base[key])) merged[key] = mine[key];
  }
  return merged as unknown as Doc;
}

/** What the last action said: read out, or an alert when it stopped something. */
export function SaidStatus({ said }: { said: Said }) {
  return (
    <>
      <div role="status">
        {said && !said.alert ? <p className={styles.notice}>{said.text}</p> : null}
      </div>
      {said?.alert ? (
        <p role="alert" className={styles.errorSummary}>
          {said.text}
        </p>
      ) : null}
    </>
  );
}

/** The item's name, where it is, what the site shows and who else has it open. */
export function ItemHeading<Doc>({
  kind,
  open,
  present,
  title,
}: {
  kind: EditorKind;
  open: OpenItem<Doc>;
  present: Present[];
  title: string;
}) {
  const { t } = useT();
  const { item } = open;
  const state =
    item.publishedVersion === null
      ? t('admin.recipe.stateDraft', { head: item.headVersion })
      : item.publishedVersion < item.headVersion
        ? t('admin.recipe.stateChanged', {
            published: item.publishedVersion,
            head: item.headVersion,
          })
        : t('admin.recipe.statePublished', { head: item.headVersion });
  return (
    <>
      <Heading level={1} id={`${kind.idPrefix}-heading`} tabIndex={-1}>
        {title}
      </Heading>
      <p>
        {t('admin.recipe.scope', { site: item.siteId, lang: item.lang })} · {state}{' '}
        {item.liveUrl && item.publishedVersion !== null ? (
          <a href={item.liveUrl} target="_blank" rel="noopener">
            {t('admin.recipe.viewLive')}
          </a>
        ) : null}
      </p>
      <div role="status">
        {present.length > 0 ? (
          <p className={styles.notice}>
            {t(kind.presentText, { names: present.map((p) => p.name).join(', ') })}
          </p>
        ) : null}
      </div>
    </>
  );
}

/** Save, and for a saved item preview and (with the right) publish; the preview's link. */
export function EditorButtons<Doc>({
  kind,
  open,
  preview,
  onPreview,
  onPublish,
}: {
  kind: EditorKind;
  open: OpenItem<Doc> | null;
  preview: { url: string; version: number } | null;
  onPreview: () => void;
  onPublish: () => void;
}) {
  const { t } = useT();
  return (
    <>
      <div className={styles.actions}>
        <Button id={`${kind.idPrefix}-save`} type="submit" className={styles.primary}>
          {t('admin.recipe.save')}
        </Button>
        {open && kind.preview !== false ? (
          <Button className={styles.secondary} onPress={onPreview}>
            {t('admin.recipe.preview')}
          </Button>
        ) : null}
        {open?.canPublish ? (
          <Button className={styles.primary} onPress={onPublish}>
            {t('admin.recipe.publish')}
          </Button>
        ) : null}
      </div>
      {open && !open.canPublish ? (
        <p className={styles.muted}>{t('admin.recipe.cannotPublish')}</p>
      ) : null}
      {preview ? (
        <p>
          <a id={`${kind.idPrefix}-preview-link`} href={preview.url} target="_blank" rel="noopener">
            {t('admin.recipe.previewOpen', { version: preview.version })}
          </a>
        </p>
      ) : null}
    </>
  );
}

/** The field errors of an API error as texts, by field name. */
export function fieldTexts(
  error: unknown,
  t: ReturnType<typeof useT>['t'],
): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const out: Record<string, string> = {};
  for (const [field, key] of Object.entries(error.errors))
    out[field] = isAdminMessageKey(key) ? t(key) : t('admin.error.invalid');
  return out;
}

/** The versions, newest first: who saved each and when, which the site shows; restore one. */
export function Versions<Doc>({
  kind,
  open,
  onRestore,
}: {
  kind: EditorKind;
  open: OpenItem<Doc>;
  onRestore: (version: number) => void;
}) {
  const { t, dateTime } = useT();
  type V = OpenItem<Doc>['versions'][number];
  return (
    <Section id={`${kind.idPrefix}-versions`} title={t('admin.recipe.versions')}>
      <RowsTable<V>
        caption={t('admin.recipe.versions')}
        hiddenCaption
        rows={open.versions}
        rowKey={(v) => v.version}
        columns={[
          [t('admin.recipe.version'), (v) => String(v.version), 'numbers'],
          [
            t('admin.recipe.versionState'),
            (v) =>
              [
                v.version === open.item.publishedVersion
                  ? t('admin.recipe.versionLive')
                  : t(
                      v.status === 'published'
                        ? 'admin.recipe.versionPublished'
                        : 'admin.recipe.versionDraft',
                    ),
                v.restoredFrom === null
                  ? ''
                  : t('admin.recipe.restoredFrom', { version: v.restoredFrom }),
              ]
                .filter(Boolean)
                .join(', '),
          ],
          [t('admin.recipe.author'), (v) => v.authorName ?? t('admin.recipe.original')],
          [t('admin.recipe.savedAt'), (v) => dateTime(v.createdAt)],
          [
            t('admin.recipe.versionActions'),
            (v) =>
              v.version === open.item.headVersion ? null : (
                <Button className={styles.secondary} onPress={() => onRestore(v.version)}>
                  {t('admin.recipe.restore', { version: v.version })}
                </Button>
              ),
            'actions',
          ],
        ]}
      />
    </Section>
  );
}

export function useVersion<Doc>(kind: EditorKind, itemId: number, version: number | null) {
  return useQuery({
    queryKey: [`${kind.itemKey}-version`, itemId, version],
    queryFn: () => get<Version<Doc>>(`${kind.api}/${itemId}/versions/${version}`),
    enabled: version !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Two versions side by side, field by field (the published one and the newest to begin with). */
export function Compare<Doc extends object>({
  kind,
  open,
  fieldLabel,
  valueText,
}: {
  kind: EditorKind;
  open: OpenItem<Doc>;
  fieldLabel: FieldLabel;
  valueText?: ValueText | undefined;
}) {
  const { t } = useT();
  const versions = open.versions.map((v) => v.version);
  const head = open.item.headVersion;
  const published = open.item.publishedVersion;
  const [from, setFrom] = useState<number | null>(null);
  const [to, setTo] = useState<number | null>(null);
  const older =
    from ?? (published !== null && published < head ? published : (versions[1] ?? head));
  const newer = to ?? head;
  const a = useVersion<Doc>(kind, open.item.id, older);
  const b = useVersion<Doc>(kind, open.item.id, newer);
  const label = (v: number) =>
    t(v === published ? 'admin.recipe.versionOptionLive' : 'admin.recipe.versionOption', {
      version: v,
    });
  const choices = versions.map((v) => [String(v), label(v)] as const);
  return (
    <Section id={`${kind.idPrefix}-compare`} title={t('admin.recipe.compare')}>
      <div className={styles.filterGrid}>
        <ChoiceSelect
          key={`from-${head}`}
          name="from"
          label={t('admin.recipe.compareFrom')}
          options={choices}
          value={String(older)}
          onChange={(v) => setFrom(Number(v))}
        />
        <ChoiceSelect
          key={`to-${head}`}
          name="to"
          label={t('admin.recipe.compareTo')}
          options={choices}
          value={String(newer)}
          onChange={(v) => setTo(Number(v))}
        />
      </div>
      {a.data && b.data ? (
        <Differences
          from={older}
          to={newer}
          changes={diffDocuments(a.data.document, b.data.document)}
          fieldLabel={fieldLabel}
          valueText={valueText}
        />
      ) : null}
    </Section>
  );
}

/** The changes between two versions as a table: the field, before and after. */
export function Differences({
  from,
  to,
  changes,
  fieldLabel,
  valueText,
}: {
  from: number;
  to: number;
  changes: FieldChange[];
  fieldLabel: FieldLabel;
  valueText?: ValueText | undefined;
}) {
  const { t } = useT();
  const empty = t('admin.recipe.emptyValue');
  const text = (change: FieldChange, value: FieldChange['before']) => {
    if (value === null || value === undefined || value === '') return empty;
    return valueText?.(change, value) ?? String(value);
  };
  if (changes.length === 0) return <p>{t('admin.recipe.noDifferences')}</p>;
  return (
    <RowsTable<FieldChange>
      caption={t('admin.recipe.differences', { from, to })}
      rows={changes}
      rowKey={(c) => c.path}
      columns={[
        [t('admin.recipe.diffField'), (c) => fieldLabel(c.path)],
        [t('admin.recipe.diffBefore'), (c) => <del>{text(c, c.before)}</del>],
        [t('admin.recipe.diffAfter'), (c) => <ins>{text(c, c.after)}</ins>],
      ]}
    />
  );
}

/** A save refused as stale: who saved what meanwhile, and the way to make the edits again. */
export function Conflict<Doc extends object>({
  kind,
  itemId,
  basedOn,
  conflict,
  fieldLabel,
  valueText,
  onReapply,
}: {
  kind: EditorKind;
  itemId: number;
  basedOn: number;
  conflict: Conflicted<Doc>;
  fieldLabel: FieldLabel;
  valueText?: ValueText | undefined;
  onReapply: (base: Doc) => void;
}) {
  const { t, dateTime } = useT();
  const base = useVersion<Doc>(kind, itemId, basedOn);
  const { current } = conflict;
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    title.current?.focus();
  }, []);
  let body: ReactNode = null;
  if (base.data) {
    body = (
      <>
        <Differences
          from={basedOn}
          to={current.version}
          changes={diffDocuments(base.data.document, current.document)}
          fieldLabel={fieldLabel}
          valueText={valueText}
        />
        <div className={styles.actions}>
          <Button
            className={styles.primary}
            onPress={() => base.data && onReapply(base.data.document)}
          >
            {t('admin.recipe.reapply')}
          </Button>
        </div>
      </>
    );
  }
  return (
    <section aria-labelledby={`${kind.idPrefix}-conflict`} className={styles.errorSummary}>
      <Heading level={2} id={`${kind.idPrefix}-conflict`} ref={title} tabIndex={-1}>
        {t('admin.recipe.conflictTitle')}
      </Heading>
      <p role="alert">
        {t('admin.recipe.conflictLead', {
          name: current.authorName ?? t('admin.recipe.someone'),
          version: current.version,
          at: dateTime(current.createdAt),
        })}
      </p>
      {body}
    </section>
  );
}

/**
 * A new item's site and language among those the staff member may edit (the kind's list's
 * `scopes`): a choice where there are several, else said; then its editor, made again for
 * another choice (`key`).
 */
export function NewItemScope({
  api,
  listKey,
  children,
}: {
  /** The kind's list (`/api/admin/content/recipes`) and its query cache key (`recipes`). */
  api: string;
  listKey: string;
  children: (scope: Scope, key: string) => ReactNode;
}) {
  const { t } = useT();
  const list = useQuery({
    queryKey: [listKey, 'scopes'],
    queryFn: () => get<{ scopes: Scope[] }>(`${api}?offset=0`),
  });
  const scopes = list.data?.scopes ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  const key = chosen ?? (scopes[0] ? `${scopes[0].siteId}/${scopes[0].lang}` : null);
  const scope = scopes.find((s) => `${s.siteId}/${s.lang}` === key);
  return (
    <>
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
      {scope && key ? children(scope, key) : null}
    </>
  );
}

/** What an opened item's editor is given: the item as it is now, who else has it open. */
export interface Opened<O> {
  open: O;
  present: Present[];
  scope: Scope;
  /** What the screen that sent the staff member here said (a made item's first save). */
  initialSaid: string | null;
}

/**
 * An item of a kind opened by id (query key `[itemKey, id]`), the staff member's presence on
 * it kept while it is open: its editor once it has come, what went wrong if it did not.
 */
export function OpenedItem<O extends { item: { siteId: string; lang: string } }>({
  kind: { api, itemKey },
  id,
  forbidden,
  notFound,
  children,
}: {
  kind: EditorKind;
  id: number;
  forbidden: AdminMessageKey;
  notFound: AdminMessageKey;
  children: (opened: Opened<O>) => ReactNode;
}) {
  const { t } = useT();
  const location = useLocation();
  const opened = useQuery({
    queryKey: [itemKey, id],
    queryFn: () => get<O>(`${api}/${id}`),
    retry: false,
    refetchOnWindowFocus: false,
  });
  const present = usePresence(api, id, opened.isSuccess);
  if (opened.isError) {
    return <OpenError error={opened.error} forbidden={forbidden} notFound={notFound} />;
  }
  if (!opened.data) return <p>{t('admin.loading')}</p>;
  const { item } = opened.data;
  return children({
    open: opened.data,
    present,
    scope: { siteId: item.siteId, lang: item.lang },
    initialSaid: (location.state as { said?: string } | null)?.said ?? null,
  });
}

/** An item that did not open: not the staff member's to edit, gone, or the server failed. */
export function OpenError({
  error,
  forbidden,
  notFound,
}: {
  error: unknown;
  forbidden: AdminMessageKey;
  notFound: AdminMessageKey;
}) {
  const { t } = useT();
  const status = error instanceof ApiError ? error.status : 0;
  return (
    <p role="alert">
      {t(status === 403 ? forbidden : status === 404 ? notFound : 'admin.error.load')}
    </p>
  );
}
