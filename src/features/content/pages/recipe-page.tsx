import { formatDuration, formatNumber } from '../../../i18n/format.ts';
import { Img } from '../../../images/picture.tsx';
import { Island } from '../../../render/island.server.tsx';
import { usePage } from '../../../render/page-context.tsx';
import { Breadcrumbs, type Crumb } from '../components/breadcrumbs.tsx';
import styles from '../components/content.module.css';
import { NutrientTable } from '../components/nutrient-table.tsx';
import type { ImageDto } from '../image-dto.ts';
import type { LikeButtonProps } from '../likes/like-button.tsx';
import type { RecipeBannerProps } from '../recipe-banner/recipe-banner.tsx';
import type { Nutrient, RecipeIngredient, RecipeStep } from '../tables.ts';
import { portionsFromQuery } from '../widgets/portions.ts';

function IngredientLine(props: { ingredient: RecipeIngredient }) {
  const { lang } = usePage();
  const { name, amount, unit, url } = props.ingredient;
  const quantity = [amount !== null && amount > 0 ? formatNumber(amount, lang, 2) : '', unit]
    .filter(Boolean)
    .join(' ');
  return (
    <li>
      {quantity ? `${quantity} ` : ''}
      {url ? <a href={url}>{name}</a> : name}
    </li>
  );
}

/** What a recipe page shows (`recipePageProps` builds it from the recipe). */
export interface RecipePageProps {
  crumbs: Crumb[];
  image: ImageDto | undefined;
  title: string;
  teaser: string;
  totalTimeMinutes: number;
  yield: number;
  portionSize: number | null;
  portionUnit: string | null;
  totalYieldKg: number | null;
  steps: RecipeStep[];
  nutrients: Nutrient[];
  /** The like button's content id and the stored count. */
  like: LikeButtonProps;
  /** The mobile bottom banner; none when the site has none or the visitor closed it. */
  banner?: RecipeBannerProps | undefined;
  /** The request's query: the portion calculator's plain form sends its count and size there. */
  portionQuery?: unknown;
}

export function RecipePage(props: RecipePageProps) {
  const { t, lang } = usePage();
  // Swedish recipes follow the Swedish rules (spec shop-and-widgets §5).
  const rules = lang === 'sv' ? 'sv' : 'fi';
  return (
    <div className="container">
      <Breadcrumbs items={props.crumbs} />
      <article>
        <div className={styles.detail}>
          <div>
            {props.image ? (
              <Img
                lang={lang}
                image={props.image}
                preset="three-by-two-crop"
                className={styles.detailImage}
                eager
              />
            ) : null}
          </div>
          <header className={styles.pageHeader}>
            <h1>{props.title}</h1>
            {props.teaser ? <p className={styles.lead}>{props.teaser}</p> : null}
            <dl className={styles.facts}>
              <dt>{t('recipe.totalTime')}</dt>
              <dd>{formatDuration(props.totalTimeMinutes)}</dd>
              <dt>{t('recipe.yieldLabel')}</dt>
              <dd>{props.yield}</dd>
              {props.portionSize && props.portionUnit ? (
                <>
                  <dt>{t('recipe.portionLabel')}</dt>
                  <dd>
                    {formatNumber(props.portionSize, lang)} {props.portionUnit}
                  </dd>
                </>
              ) : null}
              {props.totalYieldKg ? (
                <>
                  <dt>{t('recipe.totalYieldLabel')}</dt>
                  <dd>{formatNumber(props.totalYieldKg, lang)} kg</dd>
                </>
              ) : null}
            </dl>
            <Island name="like-button" props={props.like} lang={lang} hydrate="idle" />
          </header>
        </div>
        <div className={styles.detail}>
          <IngredientsSection {...props} rules={rules} />
          <section>
            <h2>{t('recipe.instructions')}</h2>
            <ol className={styles.steps}>
              {props.steps.map((step, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: steps are a static list in their own order
                <li key={`${step.heading}-${index}`}>
                  {step.heading ? <strong>{step.heading}. </strong> : null}
                  {step.instructions}
                </li>
              ))}
            </ol>
            {props.nutrients.length > 0 ? (
              <>
                <h2>{t('recipe.nutrients')}</h2>
                <NutrientTable
                  rows={props.nutrients.map((n) => ({
                    key: n.code,
                    label: n.name,
                    value: `${formatNumber(n.amount, lang)} ${n.unit}`,
                  }))}
                />
              </>
            ) : null}
          </section>
        </div>
      </article>
      {props.banner ? (
        <Island name="recipe-banner" props={props.banner} lang={lang} hydrate="idle" />
      ) : null}
    </div>
  );
}

/**
 * The ingredients: with a portion size, the portion calculator (an island) that scales them;
 * without, the plain lists by step.
 */
function IngredientsSection(props: RecipePageProps & { rules: 'fi' | 'sv' }) {
  const { t, lang } = usePage();
  const { rules } = props;
  const withIngredients = props.steps.filter((s) => s.ingredients.length > 0);
  return (
    <section>
      <h2>{t('recipe.ingredients')}</h2>
      {props.portionSize && props.portionUnit ? (
        <Island
          name="portion-calculator"
          lang={lang}
          hydrate="visible"
          props={{
            rules,
            base: {
              yield: props.yield,
              portionSize: props.portionSize,
              totalYieldKg: props.totalYieldKg,
            },
            initial: portionsFromQuery(
              rules,
              {
                yield: props.yield,
                portionSize: props.portionSize,
                totalYieldKg: props.totalYieldKg,
              },
              props.portionQuery,
            ),
            unit: props.portionUnit,
            groups: withIngredients.map((step) => ({
              heading: step.heading,
              ingredients: step.ingredients.map((i) => ({
                name: i.name,
                amount: i.amount,
                unit: i.unit,
                ...(i.url ? { url: i.url } : {}),
                ...(i.order !== undefined ? { order: i.order } : {}),
              })),
            })),
          }}
        />
      ) : null}
      {props.portionSize && props.portionUnit
        ? null
        : withIngredients.map((step) => (
            <div key={step.heading || 'main'}>
              {withIngredients.length > 1 && step.heading ? <h3>{step.heading}</h3> : null}
              <ul className={styles.ingredients}>
                {step.ingredients.map((ingredient) => (
                  <IngredientLine
                    key={`${ingredient.name}-${ingredient.amount}`}
                    ingredient={ingredient}
                  />
                ))}
              </ul>
            </div>
          ))}
    </section>
  );
}
