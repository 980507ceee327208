import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import {
  Button,
  CheckboxGroup,
  DialogTrigger,
  FileTrigger,
  Heading,
  Label,
  Radio,
  RadioGroup,
} from 'react-aria-components';
import { useLocation, useNavigate, useParams } from 'react-router';
import {
  CONTENT_IMAGES_API,
  diffDocuments,
  type FacetOptions,
  type FieldChange,
  IMAGE_UPLOAD_MAX_BYTES,
  IMAGE_UPLOAD_TYPES,
  type ImageChoice,
  PRESENCE_HEARTBEAT_MS,
  type Present,
  type RecipeDocument,
  type RecipeOpen,
  type RecipesList,
  type RecipeVersion,
  thumbnailUrl,
} from '../../features/content/admin.ts';
import { isAdminMessageKey } from '../../i18n/admin.ts';
import styles from '../admin.module.css';
import { ApiError, del, get, post, put } from '../api.ts';
import { useT } from '../i18n.tsx';
import {
  AdminForm,
  CheckField,
  ChoiceSelect,
  ErrorSummary,
  Field,
  LiveStatus,
  ModalDialog,
  NumberField,
  Section,
  TextAreaField,
} from '../ui.tsx';
import {
  documentOf,
  emptyForm,
  emptyIngredient,
  emptyStep,
  formOf,
  moved,
  type RecipeForm,
  reapply,
  slugOf,
} from './recipe-form.ts';
import { RECIPES_ADMIN_API } from './recipes.tsx';
import { SchedulePanel } from './schedule-panel.tsx';
import { formErrors, RowsTable } from './shop-parts.tsx';

type Scope = { siteId: string; lang: string };
type Said = { text: string; alert: boolean } | null;

/**
 * The recipe editor (decision 162): a new recipe of a site and language, or one opened by id.
 * Saving writes a draft version; preview and publishing act on the saved newest version. A save
 * made on an older version than the newest is refused by the server, and the editor sees what
 * changed and can make their changes again on the newest. Versions are compared field by field
 * and an old one is restored as a new draft. Who else has the recipe open is shown.
 */
export function RecipeEditorScreen() {
  const { id } = useParams();
  return id === 'new' ? <NewRecipe /> : <OpenedRecipe id={Number(id)} />;
}

function NewRecipe() {
  const { t } = useT();
  const navigate = useNavigate();
  const list = useQuery({
    queryKey: ['recipes', 'scopes'],
    queryFn: () => get<RecipesList>(`${RECIPES_ADMIN_API}?offset=0`),
  });
  const scopes = list.data?.scopes ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  const key = chosen ?? (scopes[0] ? `${scopes[0].siteId}/${scopes[0].lang}` : null);
  const scope = scopes.find((s) => `${s.siteId}/${s.lang}` === key);
  return (
    <>
      <Heading level={1}>{t('admin.recipe.newHeading')}</Heading>
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
      {scope ? (
        <Editor
          key={key}
          scope={scope}
          open={null}
          onCreated={(made, text) =>
            navigate(`/content/recipes/${made.item.id}`, { replace: true, state: { said: text } })
          }
        />
      ) : null}
    </>
  );
}

function OpenedRecipe({ id }: { id: number }) {
  const { t } = useT();
  const location = useLocation();
  const opened = useQuery({
    queryKey: ['recipe', id],
    queryFn: () => get<RecipeOpen>(`${RECIPES_ADMIN_API}/${id}`),
    retry: false,
    refetchOnWindowFocus: false,
  });
  const present = usePresence(id, opened.isSuccess);
  if (opened.isError) {
    const status = opened.error instanceof ApiError ? opened.error.status : 0;
    return (
      <p role="alert">
        {t(
          status === 403
            ? 'admin.recipe.forbidden'
            : status === 404
              ? 'admin.recipe.notFound'
              : 'admin.error.load',
        )}
      </p>
    );
  }
  if (!opened.data) return <p>{t('admin.loading')}</p>;
  const { item } = opened.data;
  return (
    <Editor
      scope={{ siteId: item.siteId, lang: item.lang }}
      open={opened.data}
      present={present}
      initialSaid={(location.state as { said?: string } | null)?.said ?? null}
    />
  );
}

/** Says every 20 seconds that this staff member has the recipe open; answers who else has. */
function usePresence(id: number, ready: boolean): Present[] {
  const [present, setPresent] = useState<Present[]>([]);
  useEffect(() => {
    if (!ready) return;
    let stopped = false;
    const url = `${RECIPES_ADMIN_API}/${id}/presence`;
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
  }, [id, ready]);
  return present;
}

/** The names of tags by id, for the comparison. */
function tagNames(options: FacetOptions | undefined): Map<number, string> {
  const names = new Map<number, string>();
  for (const category of options?.categories ?? [])
    for (const tag of category.tags) names.set(tag.id, tag.name);
  return names;
}

type EditorProps = {
  scope: Scope;
  open: RecipeOpen | null;
  present?: Present[];
  initialSaid?: string | null;
  onCreated?: (made: RecipeOpen, said: string) => void;
};

/** What one of the form's edits does: the fields it changes. */
type Change = (next: Partial<RecipeForm>) => void;

/**
 * The editor's state and its actions on the server: the form, the version it was started on,
 * whether it has unsaved changes, what the last action said, a stale save's conflict, the
 * preview link.
 */
function useRecipeEditor({ scope, open, initialSaid = null, onCreated }: EditorProps) {
  const { t } = useT();
  const client = useQueryClient();
  const [form, setForm] = useState<RecipeForm>(() =>
    open ? formOf(open.head.document) : emptyForm(),
  );
  const [basedOn, setBasedOn] = useState(open?.head.version ?? 0);
  const [dirty, setDirty] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [said, setSaid] = useState<Said>(initialSaid ? { text: initialSaid, alert: false } : null);
  const [conflict, setConflict] = useState<Conflicted | null>(null);
  const [preview, setPreview] = useState<{ url: string; version: number } | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const pending = useRef(false);
  useEffect(() => {
    if (!focusId) return;
    document.getElementById(focusId)?.focus();
    setFocusId(null);
  }, [focusId]);

  const change: Change = (next) => {
    setForm((f) => ({ ...f, ...next }));
    setDirty(true);
  };
  /** The server's newest state in place of the form (after a save, publish or restore). */
  const loaded = (answer: RecipeOpen) => {
    client.setQueryData(['recipe', answer.item.id], answer);
    void client.invalidateQueries({ queryKey: ['recipes'] });
    setForm(formOf(answer.head.document));
    setBasedOn(answer.head.version);
    setDirty(false);
    setConflict(null);
    // A link shows the version it was made for; after a change it would mislead.
    setPreview(null);
  };
  const act = async (work: () => Promise<void>) => {
    if (pending.current) return;
    pending.current = true;
    setError(null);
    setSaid(null);
    try {
      await work();
    } catch (e) {
      if (e instanceof ApiError && e.status === 409 && e.problem.current) {
        const current = e.problem.current as RecipeVersion;
        const mine = documentOf(form);
        setConflict({ current, mine: 'document' in mine ? mine.document : current.document });
      } else setError(e);
    } finally {
      pending.current = false;
    }
  };
  /** Whether the form has unsaved changes (then preview, publish and restore wait). */
  const unsaved = () => {
    if (dirty) setSaid({ text: t('admin.recipe.unsaved'), alert: true });
    return dirty;
  };
  const itemUrl = (path = '') => `${RECIPES_ADMIN_API}/${open?.item.id}${path}`;

  const save = () =>
    act(async () => {
      const made = documentOf(form);
      if ('errors' in made) {
        setError(formErrors(made.errors));
        return;
      }
      if (!open) {
        const answer = await post<RecipeOpen>(
          `${RECIPES_ADMIN_API}?site=${scope.siteId}&lang=${scope.lang}`,
          { document: made.document },
        );
        client.setQueryData(['recipe', answer.item.id], answer);
        void client.invalidateQueries({ queryKey: ['recipes'] });
        onCreated?.(answer, t('admin.recipe.saved', { version: answer.head.version }));
        return;
      }
      const answer = await put<RecipeOpen>(itemUrl(), { basedOn, document: made.document });
      loaded(answer);
      setSaid({ text: t('admin.recipe.saved', { version: answer.head.version }), alert: false });
    });
  const makePreview = () =>
    open && !unsaved()
      ? act(async () => {
          const version = open.head.version;
          const link = await post<{ url: string }>(itemUrl('/preview'), { version });
          setPreview({ url: link.url, version });
          setSaid({ text: t('admin.recipe.previewReady', { version, minutes: 15 }), alert: false });
          setFocusId('recipe-preview-link');
        })
      : undefined;
  const publish = () =>
    open && !unsaved()
      ? act(async () => {
          const answer = await post<RecipeOpen>(itemUrl('/publish'), {
            version: open.head.version,
          });
          loaded(answer);
          setSaid({
            text: t('admin.recipe.published', { version: answer.head.version }),
            alert: false,
          });
        })
      : undefined;
  const restore = (version: number) =>
    open && !unsaved()
      ? act(async () => {
          const answer = await post<RecipeOpen>(itemUrl('/restore'), {
            version,
            basedOn: open.head.version,
          });
          loaded(answer);
          setSaid({
            text: t('admin.recipe.restored', { from: version, version: answer.head.version }),
            alert: false,
          });
          setFocusId('recipe-heading');
        })
      : undefined;
  /** The editor's changes made again on the newest version, which the form is now based on. */
  const reapplyOn = (base: RecipeDocument) => {
    if (!conflict) return;
    setForm(formOf(reapply(base, conflict.mine, conflict.current.document)));
    setBasedOn(conflict.current.version);
    setDirty(true);
    setConflict(null);
    setSaid({
      text: t('admin.recipe.reapplied', { version: conflict.current.version }),
      alert: false,
    });
    setFocusId('recipe-save');
  };
  return {
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

type Conflicted = { current: RecipeVersion; mine: RecipeDocument };

function Editor(props: EditorProps) {
  const { t, dateTime } = useT();
  const { scope, open, present = [], initialSaid } = props;
  const editor = useRecipeEditor(props);
  const { form, change, said, conflict } = editor;
  const [announce, setAnnounce] = useState<string | null>(null);
  const options = useQuery({
    queryKey: ['recipe-options', scope.siteId, scope.lang],
    queryFn: () =>
      get<FacetOptions>(`${RECIPES_ADMIN_API}/options?site=${scope.siteId}&lang=${scope.lang}`),
  });
  useEffect(() => {
    if (initialSaid) document.getElementById('recipe-heading')?.focus();
  }, [initialSaid]);
  const tagsById = tagNames(options.data);
  const announceAndFocus = (text: string, focusId: string) => {
    setAnnounce(text);
    editor.focus(focusId);
  };
  return (
    <>
      {open ? <RecipeHeading open={open} present={present} /> : null}
      <LiveStatus text={said?.alert ? null : said?.text} />
      {said?.alert ? (
        <p role="alert" className={styles.errorSummary}>
          {said.text}
        </p>
      ) : null}
      {conflict && open ? (
        <Conflict
          itemId={open.item.id}
          basedOn={editor.basedOn}
          conflict={conflict}
          tagsById={tagsById}
          onReapply={editor.reapplyOn}
        />
      ) : null}
      <ErrorSummary error={editor.error} />
      <AdminForm
        errors={fieldTexts(editor.error, t)}
        onSubmit={(event) => {
          event.preventDefault();
          // Only its own submit: a dialog's form (a portal) must never save the recipe.
          if (event.target === event.currentTarget) void editor.save();
        }}
        aria-label={open ? open.head.document.title : t('admin.recipe.newHeading')}
      >
        <ContentFields
          form={form}
          change={change}
          scope={scope}
          publishedPath={open?.item.publishedPath ?? null}
          listPath={options.data?.listPath ?? null}
        />
        <TimeFields form={form} change={change} />
        <CategoryFields form={form} change={change} options={options.data} tagsById={tagsById} />
        <Section id="recipe-steps" title={t('admin.recipe.field.steps')}>
          <StepList
            steps={form.steps}
            onChange={(steps) => change({ steps })}
            said={announceAndFocus}
          />
          <LiveStatus text={announce} />
        </Section>
        <EditorButtons
          open={open}
          preview={editor.preview}
          onPreview={() => void editor.makePreview()}
          onPublish={() => void editor.publish()}
        />
      </AdminForm>
      {open?.canPublish ? (
        <SchedulePanel
          base={RECIPES_ADMIN_API}
          itemId={open.item.id}
          version={open.head.version}
          live={open.item.publishedPath !== null}
          reload={[['recipe', open.item.id], ['recipes']]}
        />
      ) : null}
      {open ? (
        <>
          <Versions
            open={open}
            onRestore={(version) => void editor.restore(version)}
            dateTime={dateTime}
          />
          <Compare open={open} tagsById={tagsById} />
        </>
      ) : null}
    </>
  );
}

/** The recipe's name, where it is, what the site shows and who else has it open. */
function RecipeHeading({ open, present }: { open: RecipeOpen; present: Present[] }) {
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
      <Heading level={1} id="recipe-heading" tabIndex={-1}>
        {open.head.document.title}
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
            {t('admin.recipe.present', { names: present.map((p) => p.name).join(', ') })}
          </p>
        ) : null}
      </div>
    </>
  );
}

/** Name, address, introduction and picture; a new recipe's address follows its name. */
function ContentFields({
  form,
  change,
  scope,
  publishedPath,
  listPath,
}: {
  form: RecipeForm;
  change: Change;
  scope: Scope;
  /** The address the site has it at; a new one keeps this one leading to it (decision 165). */
  publishedPath: string | null;
  listPath: string | null;
}) {
  const { t } = useT();
  const pathTouched = useRef(form.path !== '');
  return (
    <Section id="recipe-content" title={t('admin.recipe.content')}>
      <Field
        name="document.title"
        label={t('admin.recipe.field.title')}
        value={form.title}
        onChange={(title) =>
          change({
            title,
            ...(pathTouched.current || !listPath ? {} : { path: `${listPath}/${slugOf(title)}` }),
          })
        }
      />
      <Field
        name="document.path"
        label={t('admin.recipe.field.path')}
        description={
          publishedPath
            ? t('admin.recipe.pathPublishedHint', { path: publishedPath })
            : t('admin.recipe.pathHint')
        }
        value={form.path}
        onChange={(path) => {
          pathTouched.current = true;
          change({ path });
        }}
      />
      <TextAreaField
        name="document.teaser"
        label={t('admin.recipe.field.teaser')}
        rows={3}
        value={form.teaser}
        onChange={(teaser) => change({ teaser })}
      />
      <ImageField
        scope={scope}
        imageId={form.imageId}
        onChange={(imageId) => change({ imageId })}
      />
    </Section>
  );
}

function TimeFields({ form, change }: { form: RecipeForm; change: Change }) {
  const { t } = useT();
  return (
    <Section id="recipe-times" title={t('admin.recipe.times')}>
      <NumberField
        name="document.totalTimeMinutes"
        label={t('admin.recipe.field.totalTimeMinutes')}
        value={form.totalTimeMinutes}
        onChange={(totalTimeMinutes) => change({ totalTimeMinutes })}
      />
      <NumberField
        name="document.yield"
        label={t('admin.recipe.field.yield')}
        value={form.yield}
        onChange={(value) => change({ yield: value })}
      />
      <NumberField
        decimal
        name="document.portionSize"
        label={t('admin.recipe.field.portionSize')}
        description={t('admin.recipe.portionHint')}
        value={form.portionSize}
        onChange={(portionSize) => change({ portionSize })}
      />
      <Field
        short
        name="document.portionUnit"
        label={t('admin.recipe.field.portionUnit')}
        value={form.portionUnit}
        onChange={(portionUnit) => change({ portionUnit })}
      />
    </Section>
  );
}

/** The site's recipe categories as check boxes, and the one its card shows. */
function CategoryFields({
  form,
  change,
  options,
  tagsById,
}: {
  form: RecipeForm;
  change: Change;
  options: FacetOptions | undefined;
  tagsById: Map<number, string>;
}) {
  const { t } = useT();
  return (
    <Section id="recipe-categories" title={t('admin.recipe.field.facetTagIds')}>
      {(options?.categories ?? []).map((category) => {
        const inCategory = (id: number) => category.tags.some((tag) => tag.id === id);
        return (
          <CheckboxGroup
            key={category.id}
            className={styles.checkboxGroup}
            value={form.facetTagIds.filter(inCategory).map(String)}
            onChange={(chosen) => {
              const facetTagIds = [
                ...form.facetTagIds.filter((id) => !inCategory(id)),
                ...chosen.map(Number),
              ];
              change({
                facetTagIds,
                categoryIds: form.categoryIds.filter((id) => facetTagIds.includes(id)),
              });
            }}
          >
            <Label className={styles.label}>{category.name}</Label>
            <div className={styles.checkboxes}>
              {category.tags.map((tag) => (
                <CheckField key={tag.id} value={String(tag.id)}>
                  {tag.name}
                </CheckField>
              ))}
            </div>
          </CheckboxGroup>
        );
      })}
      <ChoiceSelect
        key={form.facetTagIds.join(',')}
        name="document.categoryIds"
        label={t('admin.recipe.field.categoryIds')}
        options={[
          ['none', t('admin.recipe.cardCategoryNone')],
          ...form.facetTagIds.map((id) => [String(id), tagsById.get(id) ?? String(id)] as const),
        ]}
        value={form.categoryIds[0] === undefined ? 'none' : String(form.categoryIds[0])}
        onChange={(chosen) => change({ categoryIds: chosen === 'none' ? [] : [Number(chosen)] })}
      />
    </Section>
  );
}

/** The steps in order, each with its ingredients; moved, removed and added by their buttons. */
function StepList({
  steps,
  onChange,
  said,
}: {
  steps: RecipeForm['steps'];
  onChange: (steps: RecipeForm['steps']) => void;
  /** Says what a button did, and where the focus goes after it. */
  said: (text: string, focusId: string) => void;
}) {
  const { t } = useT();
  const move = (s: number, by: -1 | 1, way: 'up' | 'down', key: string) => {
    const next = moved(steps, s, by);
    onChange(next);
    said(
      t('admin.recipe.moved', {
        name: t('admin.recipe.step', { n: s + 1 }),
        position: next.findIndex((step) => step.key === key) + 1,
        count: next.length,
      }),
      `step-${way}-${key}`,
    );
  };
  return (
    <>
      <ol className={styles.plainList}>
        {steps.map((step, s) => (
          <li key={step.key}>
            <fieldset className={styles.grant}>
              <legend>{t('admin.recipe.step', { n: s + 1 })}</legend>
              <Field
                name={`document.steps.${s}.heading`}
                label={t('admin.recipe.field.heading')}
                value={step.heading}
                onChange={(heading) =>
                  onChange(steps.map((x, i) => (i === s ? { ...x, heading } : x)))
                }
              />
              <TextAreaField
                name={`document.steps.${s}.instructions`}
                label={t('admin.recipe.field.instructions')}
                rows={3}
                value={step.instructions}
                onChange={(instructions) =>
                  onChange(steps.map((x, i) => (i === s ? { ...x, instructions } : x)))
                }
              />
              <Ingredients
                step={s}
                rows={step.ingredients}
                onChange={(ingredients) =>
                  onChange(steps.map((x, i) => (i === s ? { ...x, ingredients } : x)))
                }
                onMoved={said}
              />
              <div className={styles.inlineActions}>
                <Button
                  id={`step-up-${step.key}`}
                  className={styles.secondary}
                  aria-label={t('admin.recipe.moveStepUp', { n: s + 1 })}
                  onPress={() => move(s, -1, 'up', step.key)}
                >
                  {t('admin.recipe.moveUp')}
                </Button>
                <Button
                  id={`step-down-${step.key}`}
                  className={styles.secondary}
                  aria-label={t('admin.recipe.moveStepDown', { n: s + 1 })}
                  onPress={() => move(s, 1, 'down', step.key)}
                >
                  {t('admin.recipe.moveDown')}
                </Button>
                {steps.length > 1 ? (
                  <Button
                    className={styles.secondary}
                    aria-label={t('admin.recipe.removeStep', { n: s + 1 })}
                    onPress={() => {
                      onChange(steps.filter((_, i) => i !== s));
                      said(
                        t('admin.recipe.removed', { name: t('admin.recipe.step', { n: s + 1 }) }),
                        'recipe-add-step',
                      );
                    }}
                  >
                    {t('admin.recipe.remove')}
                  </Button>
                ) : null}
              </div>
            </fieldset>
          </li>
        ))}
      </ol>
      <div className={styles.actions}>
        <Button
          id="recipe-add-step"
          className={styles.secondary}
          onPress={() => onChange([...steps, emptyStep()])}
        >
          {t('admin.recipe.addStep')}
        </Button>
      </div>
    </>
  );
}

/** Save, and for a saved recipe preview and (with the right) publish; the preview's link. */
function EditorButtons({
  open,
  preview,
  onPreview,
  onPublish,
}: {
  open: RecipeOpen | null;
  preview: { url: string; version: number } | null;
  onPreview: () => void;
  onPublish: () => void;
}) {
  const { t } = useT();
  return (
    <>
      <div className={styles.actions}>
        <Button id="recipe-save" type="submit" className={styles.primary}>
          {t('admin.recipe.save')}
        </Button>
        {open ? (
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
          <a id="recipe-preview-link" href={preview.url} target="_blank" rel="noopener">
            {t('admin.recipe.previewOpen', { version: preview.version })}
          </a>
        </p>
      ) : null}
    </>
  );
}

/** The field errors of an API error as texts, by field name. */
function fieldTexts(error: unknown, t: ReturnType<typeof useT>['t']): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const out: Record<string, string> = {};
  for (const [field, key] of Object.entries(error.errors))
    out[field] = isAdminMessageKey(key) ? t(key) : t('admin.error.invalid');
  return out;
}

/** A step's ingredients: an ordered list; each row moves up and down by its buttons. */
function Ingredients({
  step,
  rows,
  onChange,
  onMoved,
}: {
  step: number;
  rows: RecipeForm['steps'][number]['ingredients'];
  onChange: (rows: RecipeForm['steps'][number]['ingredients']) => void;
  onMoved: (announce: string, focusId: string) => void;
}) {
  const { t } = useT();
  const nameOf = (row: { name: string }, i: number) =>
    row.name.trim() || t('admin.recipe.ingredient', { n: i + 1 });
  const set = (i: number, next: Partial<(typeof rows)[number]>) =>
    onChange(rows.map((row, j) => (j === i ? { ...row, ...next } : row)));
  return (
    <fieldset className={styles.grant}>
      <legend>{t('admin.recipe.field.ingredients')}</legend>
      <ol className={styles.plainList}>
        {rows.map((row, i) => (
          <li key={row.key} className={styles.ingredientRow}>
            <NumberField
              decimal
              id={`ingredient-field-${row.key}`}
              name={`document.steps.${step}.ingredients.${i}.amount`}
              label={t('admin.recipe.field.amount')}
              value={row.amount}
              onChange={(amount) => set(i, { amount })}
            />
            <Field
              short
              name={`document.steps.${step}.ingredients.${i}.unit`}
              label={t('admin.recipe.field.unit')}
              value={row.unit}
              onChange={(unit) => set(i, { unit })}
            />
            <Field
              name={`document.steps.${step}.ingredients.${i}.name`}
              label={t('admin.recipe.field.name')}
              value={row.name}
              onChange={(name) => set(i, { name })}
            />
            <div className={styles.inlineActions}>
              {(
                [
                  [-1, 'up', 'admin.recipe.moveIngredientUp', 'admin.recipe.moveUp'],
                  [1, 'down', 'admin.recipe.moveIngredientDown', 'admin.recipe.moveDown'],
                ] as const
              ).map(([by, way, label, text]) => (
                <Button
                  key={way}
                  id={`ingredient-${way}-${row.key}`}
                  className={styles.secondary}
                  aria-label={t(label, { name: nameOf(row, i) })}
                  onPress={() => {
                    const next = moved(rows, i, by);
                    onChange(next);
                    onMoved(
                      t('admin.recipe.moved', {
                        name: nameOf(row, i),
                        position: next.indexOf(row) + 1,
                        count: next.length,
                      }),
                      `ingredient-${way}-${row.key}`,
                    );
                  }}
                >
                  {t(text)}
                </Button>
              ))}
              <Button
                className={styles.secondary}
                aria-label={t('admin.recipe.removeIngredient', { name: nameOf(row, i) })}
                onPress={() => {
                  onChange(rows.filter((_, j) => j !== i));
                  onMoved(
                    t('admin.recipe.removed', { name: nameOf(row, i) }),
                    `add-ingredient-${step}`,
                  );
                }}
              >
                {t('admin.recipe.remove')}
              </Button>
            </div>
          </li>
        ))}
      </ol>
      <Button
        id={`add-ingredient-${step}`}
        className={styles.secondary}
        onPress={() => {
          const added = emptyIngredient();
          onChange([...rows, added]);
          onMoved('', `ingredient-field-${added.key}`);
        }}
      >
        {t('admin.recipe.addIngredient', { n: step + 1 })}
      </Button>
    </fieldset>
  );
}

/** The recipe's picture: its thumbnail, and a dialog to choose another from the library. */
function ImageField({
  scope,
  imageId,
  onChange,
}: {
  scope: Scope;
  imageId: number | null;
  onChange: (id: number | null) => void;
}) {
  const { t } = useT();
  return (
    <div className={styles.field}>
      <span className={styles.label} id="recipe-image-label">
        {t('admin.recipe.field.imageId')}
      </span>
      {imageId === null ? (
        <p>{t('admin.recipe.imageNone')}</p>
      ) : (
        <img
          src={thumbnailUrl(imageId)}
          alt={t('admin.recipe.imageChosen', { alt: String(imageId) })}
          width={160}
          height={160}
          className={styles.thumbnail}
        />
      )}
      <div className={styles.inlineActions}>
        <DialogTrigger>
          <Button className={styles.secondary}>
            {t(imageId === null ? 'admin.recipe.chooseImage' : 'admin.recipe.changeImage')}
          </Button>
          <ModalDialog>
            {(close) => (
              <ImagePicker
                scope={scope}
                current={imageId}
                onChoose={(id) => {
                  onChange(id);
                  close();
                }}
                close={close}
              />
            )}
          </ModalDialog>
        </DialogTrigger>
        {imageId === null ? null : (
          <Button className={styles.secondary} onPress={() => onChange(null)}>
            {t('admin.recipe.removeImage')}
          </Button>
        )}
      </div>
    </div>
  );
}

function ImagePicker({
  scope,
  current,
  onChoose,
  close,
}: {
  scope: Scope;
  current: number | null;
  onChoose: (id: number) => void;
  close: () => void;
}) {
  const { t } = useT();
  const [q, setQ] = useState('');
  const [typed, setTyped] = useState('');
  // null, not '': a group with a value no radio has cannot be reached by Tab.
  const [chosen, setChosen] = useState<string | null>(current === null ? null : String(current));
  const images = useQuery({
    queryKey: ['content-images', scope.siteId, scope.lang, q],
    queryFn: () =>
      get<{ images: ImageChoice[]; total: number }>(
        `${CONTENT_IMAGES_API}?site=${scope.siteId}&lang=${scope.lang}${q ? `&q=${encodeURIComponent(q)}` : ''}`,
      ),
  });
  return (
    <>
      <Heading slot="title" level={2}>
        {t('admin.recipe.chooseImage')}
      </Heading>
      {/* No forms in the dialog: it is a portal inside the editor's form, and React hands a
          portal's submit on to the forms around it in the component tree. */}
      <div className={styles.filters}>
        <Field
          name="q"
          type="search"
          label={t('admin.recipe.imagesSearch')}
          value={typed}
          onChange={setTyped}
          onKeyDown={(event) => {
            if (event.key === 'Enter') setQ(typed.trim());
          }}
        />
        <Button className={styles.secondary} onPress={() => setQ(typed.trim())}>
          {t('admin.recipe.imagesApply')}
        </Button>
      </div>
      {images.data && images.data.images.length === 0 ? (
        <p>{t('admin.recipe.imagesNone')}</p>
      ) : null}
      <div>
        <RadioGroup
          value={chosen}
          onChange={setChosen}
          aria-label={t('admin.recipe.imagesList')}
          className={styles.imageGrid}
        >
          {(images.data?.images ?? []).map((image) => (
            <Radio key={image.id} value={String(image.id)} className={styles.imageOption}>
              <img src={image.thumbUrl} alt="" width={96} height={96} />
              <span>{image.alt || `#${image.id}`}</span>
            </Radio>
          ))}
        </RadioGroup>
        <div className={styles.actions}>
          <Button
            className={styles.primary}
            onPress={() => (chosen ? onChoose(Number(chosen)) : undefined)}
          >
            {t('admin.recipe.choose')}
          </Button>
          <Button className={styles.secondary} onPress={close}>
            {t('admin.recipe.cancel')}
          </Button>
        </div>
      </div>
      <ImageUpload scope={scope} onUploaded={onChoose} />
    </>
  );
}

/**
 * A new picture from the staff member's computer into the image library, with its alt text; the
 * uploaded picture is the chosen one. The server checks its real type and size again.
 */
function ImageUpload({ scope, onUploaded }: { scope: Scope; onUploaded: (id: number) => void }) {
  const { t, error: text } = useT();
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const send = async () => {
    if (sending) return;
    if (!file || file.size > IMAGE_UPLOAD_MAX_BYTES || !alt.trim()) {
      setProblem(
        !file
          ? t('admin.recipe.imageType')
          : !alt.trim()
            ? `${t('admin.recipe.uploadAlt')}: ${t('admin.error.required')}`
            : t('admin.recipe.imageTooLarge'),
      );
      return;
    }
    setSending(true);
    setProblem(null);
    try {
      const data = await new Promise<string>((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result));
        reader.onerror = () => reject(reader.error);
        reader.readAsDataURL(file);
      });
      const made = await post<ImageChoice>(
        `${CONTENT_IMAGES_API}?site=${scope.siteId}&lang=${scope.lang}`,
        { data, alt: alt.trim() },
      );
      onUploaded(made.id);
    } catch (e) {
      const key = e instanceof ApiError ? Object.values(e.errors)[0] : undefined;
      setProblem(key ? (text(key) ?? key) : t('admin.error.server'));
    } finally {
      setSending(false);
    }
  };
  return (
    <section aria-labelledby="recipe-upload" className={styles.grant}>
      <Heading level={3} id="recipe-upload">
        {t('admin.recipe.upload')}
      </Heading>
      <FileTrigger
        acceptedFileTypes={[...IMAGE_UPLOAD_TYPES]}
        onSelect={(files) => {
          setFile(files?.[0] ?? null);
          setProblem(null);
        }}
      >
        <Button className={styles.secondary}>{t('admin.recipe.uploadFile')}</Button>
      </FileTrigger>
      <p role="status">{file ? t('admin.recipe.uploadChosen', { name: file.name }) : ''}</p>
      <Field name="alt" label={t('admin.recipe.uploadAlt')} value={alt} onChange={setAlt} />
      {problem ? (
        <p role="alert" className={styles.errorSummary}>
          {problem}
        </p>
      ) : null}
      <Button className={styles.primary} onPress={() => void send()}>
        {t('admin.recipe.uploadSend')}
      </Button>
    </section>
  );
}

/** The versions, newest first: who saved each and when, which the site shows; restore one. */
function Versions({
  open,
  onRestore,
  dateTime,
}: {
  open: RecipeOpen;
  onRestore: (version: number) => void;
  dateTime: (at: string) => string;
}) {
  const { t } = useT();
  type V = RecipeOpen['versions'][number];
  return (
    <Section id="recipe-versions" title={t('admin.recipe.versions')}>
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

function useVersion(itemId: number, version: number | null) {
  return useQuery({
    queryKey: ['recipe-version', itemId, version],
    queryFn: () => get<RecipeVersion>(`${RECIPES_ADMIN_API}/${itemId}/versions/${version}`),
    enabled: version !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Two versions side by side, field by field (the published one and the newest to begin with). */
function Compare({ open, tagsById }: { open: RecipeOpen; tagsById: Map<number, string> }) {
  const { t } = useT();
  const versions = open.versions.map((v) => v.version);
  const head = open.item.headVersion;
  const published = open.item.publishedVersion;
  const [from, setFrom] = useState<number | null>(null);
  const [to, setTo] = useState<number | null>(null);
  const older =
    from ?? (published !== null && published < head ? published : (versions[1] ?? head));
  const newer = to ?? head;
  const a = useVersion(open.item.id, older);
  const b = useVersion(open.item.id, newer);
  const label = (v: number) =>
    t(v === published ? 'admin.recipe.versionOptionLive' : 'admin.recipe.versionOption', {
      version: v,
    });
  const choices = versions.map((v) => [String(v), label(v)] as const);
  return (
    <Section id="recipe-compare" title={t('admin.recipe.compare')}>
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
          tagsById={tagsById}
        />
      ) : null}
    </Section>
  );
}

/** What a change's value shows as: tag ids by their names, empty values said so. */
function valueText(
  change: FieldChange,
  value: FieldChange['before'],
  tagsById: Map<number, string>,
  empty: string,
): string {
  if (value === null || value === undefined || value === '') return empty;
  if (
    (change.field === 'facetTagIds' || change.field === 'categoryIds') &&
    typeof value === 'number'
  )
    return tagsById.get(value) ?? String(value);
  return String(value);
}

/** A field's path as words: `steps.0.ingredients.2.name` → `Vaihe 1 › Ainesosa 3 › Ainesosa`. */
function useFieldLabel() {
  const { t } = useT();
  return (path: string) => {
    const parts = path.split('.');
    const words: string[] = [];
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] ?? '';
      const next = Number(parts[i + 1]);
      if ((part === 'steps' || part === 'ingredients') && Number.isInteger(next)) {
        words.push(
          t(part === 'steps' ? 'admin.recipe.step' : 'admin.recipe.ingredient', { n: next + 1 }),
        );
        i += 1;
      } else if (/^\d+$/.test(part)) {
        words.push(String(Number(part) + 1));
      } else {
        const key = `admin.recipe.field.${part}`;
        words.push(isAdminMessageKey(key) ? t(key) : part);
      }
    }
    return words.join(' › ');
  };
}

function Differences({
  from,
  to,
  changes,
  tagsById,
  caption,
}: {
  from: number;
  to: number;
  changes: FieldChange[];
  tagsById: Map<number, string>;
  caption?: string;
}) {
  const { t } = useT();
  const fieldLabel = useFieldLabel();
  const empty = t('admin.recipe.emptyValue');
  if (changes.length === 0) return <p>{t('admin.recipe.noDifferences')}</p>;
  return (
    <RowsTable<FieldChange>
      caption={caption ?? t('admin.recipe.differences', { from, to })}
      rows={changes}
      rowKey={(c) => c.path}
      columns={[
        [t('admin.recipe.diffField'), (c) => fieldLabel(c.path)],
        [t('admin.recipe.diffBefore'), (c) => <del>{valueText(c, c.before, tagsById, empty)}</del>],
        [t('admin.recipe.diffAfter'), (c) => <ins>{valueText(c, c.after, tagsById, empty)}</ins>],
      ]}
    />
  );
}

/** A save refused as stale: who saved what meanwhile, and the way to make the edits again. */
function Conflict({
  itemId,
  basedOn,
  conflict,
  tagsById,
  onReapply,
}: {
  itemId: number;
  basedOn: number;
  conflict: { current: RecipeVersion; mine: RecipeDocument };
  tagsById: Map<number, string>;
  onReapply: (base: RecipeDocument) => void;
}) {
  const { t, dateTime } = useT();
  const base = useVersion(itemId, basedOn);
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
          tagsById={tagsById}
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
    <section aria-labelledby="recipe-conflict" className={styles.errorSummary}>
      <Heading level={2} id="recipe-conflict" ref={title} tabIndex={-1}>
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
