import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ProductDocument, ProductOptions } from '../../features/content/admin.ts';
import { isAdminMessageKey } from '../../i18n/admin.ts';
import styles from '../admin.module.css';
import { get } from '../api.ts';
import { useT } from '../i18n.tsx';
import {
  CheckField,
  ChoiceSelect,
  Field,
  Notice,
  NumberField,
  Section,
  TextAreaField,
} from '../ui.tsx';
import { type EditorKind, type Scope, useFormFields, type ValueText } from './content-editor.tsx';
import { FacetTagFields } from './facet-tag-fields.tsx';
import { ImageField } from './image-field.tsx';
import { type FieldsOf, type KindEditor, kindEditorScreen } from './kind-editor.tsx';
import { PRODUCTS_ADMIN_API, productsList } from './kind-lists.tsx';
import {
  emptyProductForm,
  NUTRITION_FIGURES,
  type ProductForm,
  productDocumentOf,
  productFormOf,
} from './product-form.ts';
import { RichTextField } from './rich-text-field.tsx';

/** The shop's own site: its products' prices and codes are the shop's operations'. */
const SHOP_SITE = 'lihakauppa';

export const productKind: EditorKind = {
  api: PRODUCTS_ADMIN_API,
  itemKey: 'product',
  listKey: 'products',
  idPrefix: 'product',
  presentText: 'admin.product.present',
};

const productEditor: KindEditor<ProductDocument, ProductForm> = {
  kind: productKind,
  list: productsList,
  newHeading: 'admin.product.newHeading',
  forbidden: 'admin.product.forbidden',
  notFound: 'admin.product.notFound',
  fieldTexts: 'admin.product.field',
  titleOf: (doc) => doc.name,
  formOf: productFormOf,
  documentOf: productDocumentOf,
};

function useProductOptions(scope: Scope) {
  return useQuery({
    queryKey: ['product-options', scope.siteId, scope.lang],
    queryFn: () =>
      get<ProductOptions>(`${PRODUCTS_ADMIN_API}/options?site=${scope.siteId}&lang=${scope.lang}`),
  });
}

/** The names of the tags the editor has loaded, by id (for the comparison). */
const tagNames = new Map<number, string>();

/** Rich text as its words, each paragraph and list item apart (for the comparison). */
function plainText(html: string): string {
  const spaced = html.replace(/<\/(p|li|h[2-4]|blockquote)>|<br\s*\/?>/g, '$& ');
  const text = new DOMParser().parseFromString(spaced, 'text/html').body.textContent ?? '';
  return text.replace(/\s+/g, ' ').trim();
}

/** Tag ids as their names and the description as its text in the comparison. */
const tagText: ValueText = (change, value) => {
  if (change.field === 'descriptionHtml' && typeof value === 'string') return plainText(value);
  return (change.field === 'facetTagIds' || change.field === 'categoryIds') &&
    typeof value === 'number'
    ? (tagNames.get(value) ?? String(value))
    : undefined;
};

/** What each part of the product's form takes: the form, its change, where and whether opened. */
type PartProps = Parameters<FieldsOf<ProductForm>>[0];

const ProductFields: FieldsOf<ProductForm> = (props) => {
  const { form, change, scope, open } = props;
  const { t } = useT();
  const options = useProductOptions(scope);
  for (const category of options.data?.categories ?? [])
    for (const tag of category.tags) tagNames.set(tag.id, tag.name);
  // A new product starts as the site's first product type, under its product listing.
  const firstKind = options.data?.kinds[0];
  const listPath = options.data?.listPath ?? null;
  useEffect(() => {
    if (!open && form.kind === '' && firstKind) {
      change({ kind: firstKind, path: form.path === '/' && listPath ? `${listPath}/` : form.path });
    }
  }, [open, form.kind, form.path, firstKind, listPath, change]);
  return (
    <>
      <Notice>{t('admin.product.shopOwns')}</Notice>
      <ContentFields {...props} kinds={options.data?.kinds ?? []} />
      <ImageFields {...props} />
      <CategoryFields form={form} change={change} options={options.data} />
      <CodeFields {...props} />
      <NutritionFields {...props} />
    </>
  );
};

/** The page's texts: name, address, page type, introduction, description, ingredients. */
function ContentFields({ form, change, open, kinds }: PartProps & { kinds: string[] }) {
  const { t } = useT();
  const typeName = (kind: string) => {
    const key = `admin.product.type.${kind}`;
    return isAdminMessageKey(key) ? t(key) : kind;
  };
  const field = useFormFields(form, change, 'admin.product.field');
  return (
    <Section id="product-content" title={t('admin.product.content')}>
      <Field {...field('name')} />
      <Field {...field('path')} description={t('admin.product.pathHint')} />
      {open ? (
        <p>
          {t('admin.product.field.kind')}: {typeName(form.kind)}
        </p>
      ) : (
        <ChoiceSelect
          key={`kind-${kinds.join()}`}
          name="document.kind"
          label={t('admin.product.field.kind')}
          options={kinds.map((k) => [k, typeName(k)] as const)}
          value={form.kind || undefined}
          onChange={(kind) => change({ kind })}
        />
      )}
      <TextAreaField {...field('teaser')} rows={3} />
      <RichTextField {...field('descriptionHtml')} />
      <TextAreaField {...field('ingredients')} rows={3} />
      <CheckField isSelected={form.isNovelty} onChange={(isNovelty) => change({ isNovelty })}>
        {t('admin.product.field.isNovelty')}
      </CheckField>
    </Section>
  );
}

/** The pictures in their order: each replaced or removed, and one more added. */
function ImageFields({ form, change, scope }: PartProps) {
  const { t } = useT();
  return (
    <Section id="product-images" title={t('admin.product.field.imageIds')}>
      {form.imageIds.map((imageId, i) => (
        <ImageField
          // biome-ignore lint/suspicious/noArrayIndexKey: a picture's place is its identity here
          key={`${i}-${imageId}`}
          scope={scope}
          name={`document.imageIds.${i}`}
          label={t('admin.product.image', { n: i + 1 })}
          imageId={imageId}
          onChange={(chosen) =>
            change({
              imageIds:
                chosen === null
                  ? form.imageIds.filter((_, j) => j !== i)
                  : form.imageIds.map((old, j) => (j === i ? chosen : old)),
            })
          }
        />
      ))}
      <ImageField
        key={`add-${form.imageIds.length}`}
        scope={scope}
        label={t('admin.product.imageAdd')}
        imageId={null}
        onChange={(chosen) => {
          if (chosen !== null) change({ imageIds: [...form.imageIds, chosen] });
        }}
      />
    </Section>
  );
}

/** The codes and the weight; a shop product's code is the shop's and only shown. */
function CodeFields({ form, change, scope, open }: PartProps) {
  const { t } = useT();
  const field = useFormFields(form, change, 'admin.product.field');
  return (
    <Section id="product-codes" title={t('admin.product.codes')}>
      <Field
        {...field('code')}
        {...(scope.siteId === SHOP_SITE && open
          ? { description: t('admin.product.codeHint') }
          : {})}
        isReadOnly={scope.siteId === SHOP_SITE && open}
      />
      <Field {...field('gtin')} inputMode="numeric" />
      <Field {...field('valoCode')} />
      {scope.siteId === SHOP_SITE ? null : (
        <Field {...field('shopCode')} description={t('admin.product.shopCodeHint')} />
      )}
      <NumberField {...field('weightGrams')} />
    </Section>
  );
}

/** The nutrition table: what the figures are per, and each figure. */
function NutritionFields({ form, change }: PartProps) {
  const { t } = useT();
  return (
    <Section id="product-nutrition" title={t('admin.product.field.nutrition')}>
      <Field
        name="document.nutrition.per"
        label={t('admin.product.field.nutrition.per')}
        description={t('admin.product.perHint')}
        value={form.nutritionPer}
        onChange={(nutritionPer) => change({ nutritionPer })}
      />
      <div className={styles.filterGrid}>
        {NUTRITION_FIGURES.map((figure) => (
          <NumberField
            key={figure}
            decimal
            name={`document.nutrition.${figure}`}
            label={t(`admin.product.field.nutrition.${figure}`)}
            value={form.nutrition[figure]}
            onChange={(value) => change({ nutrition: { ...form.nutrition, [figure]: value } })}
          />
        ))}
      </div>
    </Section>
  );
}

/** The product's tags by category, its listing category among them, and its product group. */
function CategoryFields({
  form,
  change,
  options,
}: {
  form: ProductForm;
  change: (next: Partial<ProductForm>) => void;
  options: ProductOptions | undefined;
}) {
  const { t } = useT();
  const field = useFormFields(form, change, 'admin.product.field');
  return (
    <Section id="product-categories" title={t('admin.product.categories')}>
      <FacetTagFields
        categories={options?.categories ?? []}
        value={form}
        onChange={change}
        tagsById={tagNames}
        categoryLabel={t('admin.product.field.categoryIds')}
      />
      <Field {...field('productGroup')} />
    </Section>
  );
}

/**
 * The product editor (decision 171): a new product of a site and language, or one opened by id.
 * What the product page shows and brand and shop staff write — name, address, introduction,
 * description (rich text the site's sanitiser keeps), ingredients, pictures, categories, codes,
 * nutrition. Prices, stock and the VAT class are the shop's catalogue's, shown nowhere here and
 * never written by publishing.
 */
export const ProductEditorScreen = kindEditorScreen(
  productEditor,
  () => emptyProductForm('', null),
  ProductFields,
  tagText,
);
