import { type ReactNode, useState } from 'react';
import { Button, DialogTrigger, Heading } from 'react-aria-components';
import type { z } from 'zod';
import type {
  CATALOGUE_API as CatalogueApi,
  CatalogueList,
  CatalogueProduct,
  dateStockBodySchema,
  priceBodySchema,
  stockBodySchema,
  weeklyBodySchema,
} from '../../features/shop/admin.ts';
import styles from '../admin.module.css';
import { post } from '../api.ts';
import { DateField } from '../date-field.tsx';
import { useT } from '../i18n.tsx';
import {
  centsToEuros,
  eurosToCents,
  percentText,
  weekdayNames,
  wholeNumber,
} from '../shop-values.ts';
import {
  AdminForm,
  ChoiceRadios,
  ChoiceSelect,
  ErrorSummary,
  ModalDialog,
  NumberField,
  Submit,
  useFieldErrors,
} from '../ui.tsx';
import {
  type Column,
  ListPages,
  RowsTable,
  SaidText,
  SearchedListHead,
  useChange,
  useSearchedList,
} from './shop-parts.tsx';

// The API's address, checked against the feature's constant (only types come from the feature).
export const CATALOGUE_API: typeof CatalogueApi = '/api/admin/catalogue';
const PRODUCTS_API = `${CATALOGUE_API}/products`;

type TaxClass = z.infer<typeof priceBodySchema>['taxClass'];
// Every VAT class, checked against the API's: one missing fails the type check.
const TAX_CLASSES: Record<TaxClass, null> = { food: null, standard: null, exempt: null };
const taxClasses = Object.keys(TAX_CLASSES) as TaxClass[];
const isTaxClass = (value: string): value is TaxClass => Object.hasOwn(TAX_CLASSES, value);

const productPath = (code: string, what: string) =>
  `${PRODUCTS_API}/${encodeURIComponent(code)}/${what}`;

/** Reads the list again and answers the product as it is now (undefined if it is gone). */
type Reload = (code: string) => Promise<CatalogueProduct | undefined>;

/**
 * The shop's products: price and VAT, stock, weekly quantities and each one's dates of its own,
 * 50 a page, found by name or code (the query is the URL's). Each product opens a dialog of its
 * changes; each change names the value shown, and one made meanwhile (an order, a colleague)
 * is said and shown instead of being overwritten.
 */
export function CatalogueScreen() {
  const { t } = useT();
  const { q, offset, params, list, reread, search } = useSearchedList<CatalogueList>(
    'catalogue',
    PRODUCTS_API,
  );
  const reload: Reload = async (code) => (await reread())?.products.find((p) => p.code === code);
  const total = list.data?.total;
  return (
    <>
      <Heading level={1}>{t('admin.catalogue.heading')}</Heading>
      <p>{t('admin.catalogue.lead')}</p>
      <SearchedListHead screen="catalogue" q={q} list={list} onSearch={search} />
      {list.data ? <ProductsTable products={list.data.products} reload={reload} /> : null}
      {total === undefined ? null : <ListPages offset={offset} total={total} params={params} />}
    </>
  );
}

/** Names and texts the table and the dialog share. */
function useProductTexts() {
  const { t, lang, money } = useT();
  const short = weekdayNames(lang, 'short');
  return {
    price: (cents: number | null) => (cents === null ? t('admin.catalogue.noPrice') : money(cents)),
    stock: (stock: number | null) =>
      stock === null
        ? t('admin.catalogue.unlimited')
        : t('admin.catalogue.pieces', { count: stock }),
    taxClass: (taxClass: string) =>
      isTaxClass(taxClass) ? t(`admin.catalogue.taxClass.${taxClass}`) : taxClass,
    vat: (p: CatalogueProduct) =>
      p.vatBasisPoints === null ? '–' : percentText(p.vatBasisPoints, lang),
    weekly: (weekly: (number | null)[]) => {
      const set = weekly.flatMap((n, i) => (n === null ? [] : [`${short[i]} ${n}`]));
      return set.length > 0 ? set.join(' · ') : t('admin.catalogue.noWeekly');
    },
  };
}

function ProductsTable({ products, reload }: { products: CatalogueProduct[]; reload: Reload }) {
  const { t } = useT();
  const text = useProductTexts();
  if (products.length === 0) return <p>{t('admin.catalogue.empty')}</p>;
  const columns: Column<CatalogueProduct>[] = [
    [
      t('admin.catalogue.product'),
      (p) => (
        <span className={styles.stack}>
          <span>{p.name}</span>
          <span className={styles.muted}>
            {p.code}
            {p.isGiftCard ? ` · ${t('admin.catalogue.giftCard')}` : ''}
          </span>
        </span>
      ),
    ],
    [t('admin.catalogue.price'), (p) => text.price(p.priceCents), 'numbers'],
    [
      t('admin.catalogue.vat'),
      (p) => (
        <span className={styles.stack}>
          <span>{text.vat(p)}</span>
          <span className={styles.muted}>{text.taxClass(p.taxClass)}</span>
        </span>
      ),
    ],
    [t('admin.catalogue.stock'), (p) => text.stock(p.stock)],
    [t('admin.catalogue.weekly'), (p) => text.weekly(p.weekly)],
    [t('admin.catalogue.actions'), (p) => <ProductDialog product={p} reload={reload} />, 'actions'],
  ];
  return (
    <RowsTable
      caption={t('admin.catalogue.caption')}
      hiddenCaption
      columns={columns}
      rows={products}
      rowKey={(p) => p.code}
    />
  );
}

/**
 * A product's changes, each a form of its own: price and VAT class, stock, weekly quantities
 * and a date's stock (with the coming dates that have one).
 */
function ProductDialog({ product: p, reload }: { product: CatalogueProduct; reload: Reload }) {
  const { t } = useT();
  return (
    <DialogTrigger>
      <Button
        className={styles.secondary}
        aria-label={t('admin.catalogue.editProduct', { name: p.name, code: p.code })}
      >
        {t('admin.catalogue.edit')}
      </Button>
      <ModalDialog>
        {(close) => (
          <>
            <Heading slot="title">{t('admin.catalogue.dialogHeading', { name: p.name })}</Heading>
            <p className={styles.muted}>{p.code}</p>
            <PriceForm product={p} reload={reload} />
            <StockForm product={p} reload={reload} />
            <WeeklyForm product={p} reload={reload} />
            <DateStockForm product={p} reload={reload} />
            <div className={styles.actions}>
              <Button className={styles.secondary} onPress={close}>
                {t('admin.catalogue.close')}
              </Button>
            </div>
          </>
        )}
      </ModalDialog>
    </DialogTrigger>
  );
}

function Part({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className={styles.dialogPart}>
      <Heading level={3} id={id}>
        {title}
      </Heading>
      {children}
    </section>
  );
}

/** An id for a product's part of the dialog (codes are letters, digits and hyphens). */
const partId = (code: string, part: string) => `${part}-${code}`;

function PriceForm({ product: p, reload }: { product: CatalogueProduct; reload: Reload }) {
  const { t } = useT();
  const text = useProductTexts();
  // What the form was opened with (or read again): sent as `expected`.
  const [shown, setShown] = useState({ priceCents: p.priceCents, taxClass: p.taxClass });
  const [price, setPrice] = useState(centsToEuros(p.priceCents));
  const [taxClass, setTaxClass] = useState(p.taxClass);
  const change = useChange();
  const show = (now: CatalogueProduct | undefined) => {
    if (!now) return;
    setShown({ priceCents: now.priceCents, taxClass: now.taxClass });
    setPrice(centsToEuros(now.priceCents));
    setTaxClass(now.taxClass);
  };
  const nowText = (now: { priceCents: number | null; taxClass: string }) => ({
    price: text.price(now.priceCents),
    taxClass: text.taxClass(now.taxClass),
  });
  const id = partId(p.code, 'price');
  return (
    <Part id={id} title={t('admin.catalogue.priceHeading')}>
      <p className={styles.muted}>{t('admin.catalogue.priceNow', nowText(shown))}</p>
      <SaidText said={change.said} />
      <ErrorSummary error={change.error} />
      <AdminForm
        errors={useFieldErrors(change.error)}
        onSubmit={(event) => {
          event.preventDefault();
          const cents = eurosToCents(price);
          void change.run({
            check: () => ({
              ...(cents === null ? { priceCents: 'admin.catalogue.priceInvalid' } : {}),
              ...(isTaxClass(taxClass) ? {} : { taxClass: 'admin.error.invalid' }),
            }),
            send: () => {
              const body: z.infer<typeof priceBodySchema> = {
                priceCents: cents ?? 0,
                taxClass: taxClass as TaxClass,
                expected: shown,
              };
              return post(productPath(p.code, 'price'), body);
            },
            done: async () => {
              const now = await reload(p.code);
              show(now);
              return t('admin.catalogue.priceSaved', nowText(now ?? shown));
            },
            conflict: async () => {
              const now = await reload(p.code);
              show(now);
              return t('admin.catalogue.priceConflict', nowText(now ?? shown));
            },
          });
        }}
      >
        <div className={styles.row3}>
          <NumberField
            name="priceCents"
            label={t('admin.catalogue.priceField')}
            description={t('admin.catalogue.priceHint')}
            decimal
            value={price}
            onChange={setPrice}
          />
          <ChoiceSelect
            name="taxClass"
            label={t('admin.catalogue.taxClassField')}
            value={taxClass}
            onChange={setTaxClass}
            options={taxClasses.map((c) => [c, t(`admin.catalogue.taxClass.${c}`)] as const)}
          />
        </div>
        <Submit>{t('admin.catalogue.savePrice')}</Submit>
      </AdminForm>
    </Part>
  );
}

function StockForm({ product: p, reload }: { product: CatalogueProduct; reload: Reload }) {
  const { t } = useT();
  const text = useProductTexts();
  const [shown, setShown] = useState(p.stock);
  const [limited, setLimited] = useState(p.stock !== null);
  const [count, setCount] = useState(p.stock === null ? '' : String(p.stock));
  const change = useChange();
  const show = (now: CatalogueProduct | undefined) => {
    if (!now) return;
    setShown(now.stock);
    setLimited(now.stock !== null);
    setCount(now.stock === null ? '' : String(now.stock));
  };
  const id = partId(p.code, 'stock');
  return (
    <Part id={id} title={t('admin.catalogue.stockHeading')}>
      <p className={styles.muted}>{t('admin.catalogue.stockNow', { stock: text.stock(shown) })}</p>
      <SaidText said={change.said} />
      <ErrorSummary error={change.error} />
      <AdminForm
        errors={useFieldErrors(change.error)}
        onSubmit={(event) => {
          event.preventDefault();
          const stock = limited ? wholeNumber(count) : null;
          void change.run({
            check: (): Record<string, string> =>
              limited && stock === null ? { stock: 'admin.catalogue.countInvalid' } : {},
            send: () => {
              const body: z.infer<typeof stockBodySchema> = { stock, expected: shown };
              return post(productPath(p.code, 'stock'), body);
            },
            done: async () => {
              const now = await reload(p.code);
              show(now);
              return t('admin.catalogue.stockSaved', { stock: text.stock(now?.stock ?? stock) });
            },
            conflict: async () => {
              const now = await reload(p.code);
              show(now);
              return t('admin.catalogue.stockConflict', {
                stock: text.stock(now ? now.stock : shown),
              });
            },
          });
        }}
      >
        <ChoiceRadios
          label={t('admin.catalogue.stockKind')}
          options={[
            ['unlimited', t('admin.catalogue.stockUnlimited')],
            ['limited', t('admin.catalogue.stockLimited')],
          ]}
          value={limited ? 'limited' : 'unlimited'}
          onChange={(value) => setLimited(value === 'limited')}
        />
        {limited ? (
          <NumberField
            name="stock"
            label={t('admin.catalogue.stockField')}
            value={count}
            onChange={setCount}
          />
        ) : null}
        <Submit>{t('admin.catalogue.saveStock')}</Submit>
      </AdminForm>
    </Part>
  );
}

function WeeklyForm({ product: p, reload }: { product: CatalogueProduct; reload: Reload }) {
  const { t, lang } = useT();
  // As field labels, capitalised: `Maanantai` (the language writes them small mid-sentence).
  const days = weekdayNames(lang, 'long').map((d) => d.charAt(0).toUpperCase() + d.slice(1));
  const [typed, setTyped] = useState(() => p.weekly.map((n) => (n === null ? '' : String(n))));
  const change = useChange();
  const id = partId(p.code, 'weekly');
  return (
    <Part id={id} title={t('admin.catalogue.weeklyHeading')}>
      <p className={styles.muted}>{t('admin.catalogue.weeklyLead')}</p>
      <SaidText said={change.said} />
      <ErrorSummary error={change.error} />
      <AdminForm
        errors={useFieldErrors(change.error)}
        onSubmit={(event) => {
          event.preventDefault();
          const quantities = typed.map((text) => (text.trim() === '' ? null : wholeNumber(text)));
          void change.run({
            check: () =>
              Object.fromEntries(
                typed.flatMap((text, i) =>
                  text.trim() !== '' && quantities[i] === null
                    ? [[`quantities.${i}`, 'admin.catalogue.countInvalid']]
                    : [],
                ),
              ),
            send: () => {
              const body: z.infer<typeof weeklyBodySchema> = { quantities };
              return post(productPath(p.code, 'weekly'), body);
            },
            done: async () => {
              const now = await reload(p.code);
              if (now) setTyped(now.weekly.map((n) => (n === null ? '' : String(n))));
              return t('admin.catalogue.weeklySaved');
            },
            // Weekly quantities are replaced whole: no change is refused as stale.
            conflict: () => t('admin.error.server'),
          });
        }}
      >
        <fieldset className={styles.buttonGroup}>
          <legend>{t('admin.catalogue.weeklyLegend')}</legend>
          <div className={styles.weekGrid}>
            {days.map((day, i) => (
              <NumberField
                // biome-ignore lint/suspicious/noArrayIndexKey: the seven weekdays, Monday first
                key={i}
                name={`quantities.${i}`}
                label={day}
                value={typed[i] ?? ''}
                onChange={(value) =>
                  setTyped((now) => now.map((old, j) => (j === i ? value : old)))
                }
              />
            ))}
          </div>
        </fieldset>
        <Submit>{t('admin.catalogue.saveWeekly')}</Submit>
      </AdminForm>
    </Part>
  );
}

function DateStockForm({ product: p, reload }: { product: CatalogueProduct; reload: Reload }) {
  const { t, day } = useT();
  const [date, setDate] = useState('');
  const [capacity, setCapacity] = useState('');
  const change = useChange();
  const id = partId(p.code, 'dates');
  const soldOn = (now: CatalogueProduct | undefined, on: string) =>
    now?.dates.find((d) => d.date === on)?.sold;
  return (
    <Part id={id} title={t('admin.catalogue.datesHeading')}>
      <p className={styles.muted}>{t('admin.catalogue.datesLead')}</p>
      <SaidText said={change.said} />
      <ErrorSummary error={change.error} />
      <AdminForm
        errors={useFieldErrors(change.error)}
        onSubmit={(event) => {
          event.preventDefault();
          const count = wholeNumber(capacity);
          const on = date;
          void change.run({
            check: () => ({
              ...(/^\d{4}-\d{2}-\d{2}$/.test(on) ? {} : { date: 'admin.catalogue.dateRequired' }),
              ...(count === null ? { capacity: 'admin.catalogue.countInvalid' } : {}),
            }),
            send: () => {
              const body: z.infer<typeof dateStockBodySchema> = {
                date: on,
                capacity: count ?? 0,
              };
              return post(productPath(p.code, 'date-stock'), body);
            },
            done: async () => {
              await reload(p.code);
              return t('admin.catalogue.dateSaved', { date: day(on), capacity: count ?? 0 });
            },
            conflict: async () => {
              const sold = soldOn(await reload(p.code), on);
              return sold === undefined
                ? t('admin.catalogue.dateConflictUnknown', { date: day(on) })
                : t('admin.catalogue.dateConflict', { date: day(on), sold });
            },
          });
        }}
      >
        <div className={styles.row3}>
          <DateField
            name="date"
            label={t('admin.catalogue.date')}
            value={date}
            onChange={setDate}
          />
          <NumberField
            name="capacity"
            label={t('admin.catalogue.capacity')}
            value={capacity}
            onChange={setCapacity}
          />
        </div>
        <Submit>{t('admin.catalogue.saveDate')}</Submit>
      </AdminForm>
      {p.dates.length === 0 ? (
        <p>{t('admin.catalogue.noDates')}</p>
      ) : (
        <RowsTable
          caption={t('admin.catalogue.comingDates')}
          columns={[
            [t('admin.catalogue.date'), (d) => day(d.date)],
            [t('admin.catalogue.capacityColumn'), (d) => d.capacity, 'numbers'],
            [t('admin.catalogue.sold'), (d) => d.sold, 'numbers'],
            [t('admin.catalogue.left'), (d) => Math.max(0, d.capacity - d.sold), 'numbers'],
          ]}
          rows={p.dates}
          rowKey={(d) => d.date}
        />
      )}
    </Part>
  );
}
