import { type ChangeEvent, useId, useState } from 'react';
import { useT } from '../../../i18n/react.tsx';
import { useHydrated } from '../../../render/use-hydrated.ts';
import {
  acceptPortionValue,
  formatAmount,
  netTotalKg,
  orderedIngredients,
  PORTION_STEPS,
  type PortionBase,
  type PortionRules,
  type Portions,
  SWEDISH_LIMITS,
  scaledAmount,
  stepPortions,
} from './portions.ts';
import styles from './widgets.module.css';

export interface PortionIngredient {
  name: string;
  amount: number | null;
  unit: string;
  url?: string;
  order?: number;
}

export interface PortionCalculatorProps {
  rules: PortionRules;
  base: PortionBase;
  /** The portion size's unit ('g'). */
  unit: string;
  /** The recipe's steps that list ingredients: a heading (shown when there are several). */
  groups: { heading: string; ingredients: PortionIngredient[] }[];
  /** The portions the page was asked for by the plain form (`?count=&size=`); the recipe's own. */
  initial?: Portions;
}

/** The calculator's anchor: the plain form comes back to it. */
export const PORTION_CALCULATOR_ID = 'annoslaskuri';

/**
 * The recipe's ingredients with a portion calculator (spec shop-and-widgets §5): the count and
 * size fields scale every amount. Rendered on the server at the recipe's own portions, so the
 * amounts read as plain numbers before the island hydrates. Without script the fields are a
 * plain GET form: the server answers the page computed for the sent count and size.
 */
export function PortionCalculator(props: PortionCalculatorProps) {
  const t = useT();
  const id = useId();
  const { rules, base, unit } = props;
  const [portions, setPortions] = useState<Portions>(
    props.initial ?? { count: base.yield, size: base.portionSize },
  );
  // Without script (and until the island runs): no step buttons, a submit button instead.
  const live = useHydrated();
  // What the fields show while the visitor types: a value rules ignore stays visible until blur.
  const [typed, setTyped] = useState<{ count?: string; size?: string }>({});
  const fields: { key: keyof Portions; label: string }[] = [
    { key: 'count', label: t('widgets.portions.count') },
    { key: 'size', label: t('widgets.portions.size', { unit }) },
  ];
  const onChange = (key: keyof Portions) => (event: ChangeEvent<HTMLInputElement>) => {
    const text = event.target.value;
    setTyped((prev) => ({ ...prev, [key]: text }));
    if (text.trim() === '') return;
    const next = Number(text.replace(',', '.'));
    setPortions((prev) => ({ ...prev, [key]: acceptPortionValue(rules, key, prev[key], next) }));
  };
  const step = (key: keyof Portions, direction: 1 | -1) => {
    setTyped((prev) => ({ ...prev, [key]: undefined }));
    setPortions((prev) => stepPortions(rules, prev, key, direction));
  };
  const net = rules === 'fi' ? netTotalKg(base, portions) : null;
  return (
    <form
      id={PORTION_CALCULATOR_ID}
      method="get"
      action={`#${PORTION_CALCULATOR_ID}`}
      data-portion-calculator={rules}
      onSubmit={(event) => event.preventDefault()}
    >
      <fieldset className={styles.calculator}>
        <legend>{t('widgets.portions.legend')}</legend>
        {fields.map(({ key, label }) => (
          <PortionField
            key={key}
            id={id}
            field={key}
            label={label}
            rules={rules}
            live={live}
            value={typed[key] ?? String(portions[key])}
            onChange={onChange(key)}
            onBlur={() => setTyped((prev) => ({ ...prev, [key]: undefined }))}
            onStep={(direction) => step(key, direction)}
          />
        ))}
        {rules === 'sv' ? (
          <p className={styles.hint}>{t('widgets.portions.svLimits', { unit })}</p>
        ) : null}
        {live ? null : (
          <p>
            <button type="submit" className={styles.button}>
              {t('widgets.portions.calculate')}
            </button>
          </p>
        )}
      </fieldset>
      <div id={`${id}list`}>
        <p className="visually-hidden" aria-live="polite">
          {t('widgets.portions.summary', {
            count: String(portions.count),
            size: String(portions.size),
            unit,
          })}
        </p>
        <IngredientGroups groups={props.groups} rules={rules} base={base} portions={portions} />
        {net !== null ? (
          <p>
            {t('widgets.portions.netTotal')}:{' '}
            <output className={styles.netTotal} data-net-total>
              {formatAmount(net, rules)} kg
            </output>
          </p>
        ) : null}
      </div>
    </form>
  );
}

/** One field of the calculator: its label, the number, and − and + once the island runs. */
function PortionField(props: {
  id: string;
  field: keyof Portions;
  label: string;
  rules: PortionCalculatorProps['rules'];
  live: boolean;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  onBlur: () => void;
  onStep: (direction: 1 | -1) => void;
}) {
  const t = useT();
  const { id, field: key, label } = props;
  const inputId = `${id}${key}`;
  const limits = props.rules === 'sv' ? SWEDISH_LIMITS[key] : undefined;
  return (
    <div className={styles.stepper}>
      <label htmlFor={inputId}>{label}</label>
      {props.live ? (
        <button
          type="button"
          className={styles.button}
          aria-label={t('widgets.portions.decrease', { label })}
          aria-controls={`${id}list`}
          onClick={() => props.onStep(-1)}
        >
          −
        </button>
      ) : null}
      <input
        id={inputId}
        name={key}
        type="number"
        inputMode="numeric"
        step={PORTION_STEPS[key]}
        {...(limits ? { min: limits.min, max: limits.max } : {})}
        value={props.value}
        onChange={props.onChange}
        onBlur={props.onBlur}
        aria-controls={`${id}list`}
      />
      {props.live ? (
        <button
          type="button"
          className={styles.button}
          aria-label={t('widgets.portions.increase', { label })}
          aria-controls={`${id}list`}
          onClick={() => props.onStep(1)}
        >
          +
        </button>
      ) : null}
    </div>
  );
}

/** The ingredient groups with their amounts scaled to the portions. */
function IngredientGroups(props: {
  groups: PortionCalculatorProps['groups'];
  rules: PortionCalculatorProps['rules'];
  base: PortionCalculatorProps['base'];
  portions: Portions;
}) {
  const { rules, base, portions } = props;
  const multipleGroups = props.groups.length > 1;
  return (
    <>
      {props.groups.map((group, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: steps are a static list in their own order
        <div key={`${group.heading}-${index}`}>
          {multipleGroups && group.heading ? <h3>{group.heading}</h3> : null}
          <ul className={styles.ingredients} data-ingredients>
            {orderedIngredients(rules, group.ingredients).map((ingredient, i) => {
              const amount = scaledAmount(ingredient.amount, base, portions);
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: ingredients are a static list
                <li key={`${ingredient.name}-${i}`}>
                  {amount !== null ? (
                    <span data-amount>
                      {`${formatAmount(amount, rules)} ${ingredient.unit}`.trim()}{' '}
                    </span>
                  ) : null}
                  {ingredient.url ? (
                    <a href={ingredient.url}>{ingredient.name}</a>
                  ) : (
                    ingredient.name
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </>
  );
}
