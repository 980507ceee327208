import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Button, CheckboxGroup, Heading, Label } from 'react-aria-components';
import { useNavigate, useParams } from 'react-router';
import type {
  FacetOptions,
  FieldChange,
  Present,
  RecipeDocument,
  RecipeOpen,
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
  ItemEditorFrame,
  NewItemScope,
  OpenedItem,
  type Scope,
  useFormFields,
  useItemEditor,
} from './content-editor.tsx';
import { ImageField } from './image-field.tsx';
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
  return (
    <>
      <Heading level={1}>{t('admin.recipe.newHeading')}</Heading>
      <NewItemScope api={RECIPES_ADMIN_API} listKey="recipes">
        {(scope, key) => (
          <Editor
            key={key}
            scope={scope}
            open={null}
            onCreated={(made, text) =>
              navigate(`/content/recipes/${made.item.id}`, { replace: true, state: { said: text } })
            }
          />
        )}
      </NewItemScope>
    </>
  );
}

function OpenedRecipe({ id }: { id: number }) {
  return (
    <OpenedItem<RecipeOpen>
      kind={recipeKind}
      id={id}
      forbidden="admin.recipe.forbidden"
      notFound="admin.recipe.notFound"
    >
      {(opened) => <Editor {...opened} />}
    </OpenedItem>
  );
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

export const recipeKind: EditorKind = {
  api: RECIPES_ADMIN_API,
  itemKey: 'recipe',
  listKey: 'recipes',
  idPrefix: 'recipe',
  presentText: 'admin.recipe.present',
  schedule: true,
};

function Editor(props: EditorProps) {
  const { t } = useT();
  const { scope, open } = props;
  const editor = useItemEditor<RecipeDocument, RecipeForm>({
    ...props,
    kind: recipeKind,
    emptyForm,
    formOf,
    documentOf,
    reapply,
  });
  const { form, change } = editor;
  const [announce, setAnnounce] = useState<string | null>(null);
  const options = useQuery({
    queryKey: ['recipe-options', scope.siteId, scope.lang],
    queryFn: () =>
      get<FacetOptions>(`${RECIPES_ADMIN_API}/options?site=${scope.siteId}&lang=${scope.lang}`),
  });
  const tagsById = tagNames(options.data);
  const fieldLabel = useFieldLabel();
  const announceAndFocus = (text: string, focusId: string) => {
    setAnnounce(text);
    editor.focus(focusId);
  };
  return (
    <ItemEditorFrame
      editor={editor}
      present={props.present}
      title={open ? open.head.document.title : t('admin.recipe.newHeading')}
      fieldLabel={fieldLabel}
      valueText={(change, value) => valueText(change, value, tagsById)}
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
    </ItemEditorFrame>
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
  const field = useFormFields(form, change, 'admin.recipe.field');
  const pathTouched = useRef(form.path !== '');
  return (
    <Section id="recipe-content" title={t('admin.recipe.content')}>
      <Field
        {...field('title')}
        onChange={(title) =>
          change({
            title,
            ...(pathTouched.current || !listPath ? {} : { path: `${listPath}/${slugOf(title)}` }),
          })
        }
      />
      <Field
        {...field('path')}
        description={
          publishedPath
            ? t('admin.recipe.pathPublishedHint', { path: publishedPath })
            : t('admin.recipe.pathHint')
        }
        onChange={(path) => {
          pathTouched.current = true;
          change({ path });
        }}
      />
      <TextAreaField {...field('teaser')} rows={3} />
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
  const field = useFormFields(form, change, 'admin.recipe.field');
  return (
    <Section id="recipe-times" title={t('admin.recipe.times')}>
      <NumberField {...field('totalTimeMinutes')} />
      <NumberField {...field('yield')} />
      <NumberField {...field('portionSize')} decimal description={t('admin.recipe.portionHint')} />
      <Field {...field('portionUnit')} short />
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

/** What a change's value shows as: tag ids by their names. */
function valueText(
  change: FieldChange,
  value: FieldChange['before'],
  tagsById: Map<number, string>,
): string | undefined {
  if (
    (change.field === 'facetTagIds' || change.field === 'categoryIds') &&
    typeof value === 'number'
  )
    return tagsById.get(value) ?? String(value);
  return undefined;
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
