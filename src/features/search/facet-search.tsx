import {
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { formatDate, formatDuration } from '../../i18n/format.ts';
import { useLang, useT } from '../../i18n/react.tsx';
import type { Translate } from '../../i18n/translate.ts';
import { presetSize } from '../../images/presets.ts';
import styles from './facet-search.module.css';
import {
  FACET_SEARCH_ENDPOINTS,
  type FacetSearchKind,
  type SearchLanguage,
  type SearchPageDefaults,
  type SearchPageState,
} from './params.ts';
import type { FacetCategory, SearchHit, SearchResultOf } from './schemas.ts';
import { MoreResults, SearchBox } from './search-box.tsx';
import { fetchSearch, fetchSearchPages } from './search-page-fetch.ts';
import { useUrlSearch } from './use-url-search.ts';

export interface FacetSearchProps<H extends SearchHit = SearchHit> {
  kind: FacetSearchKind;
  /** The page's own URL (with the language prefix). */
  action: string;
  language: SearchLanguage;
  state: SearchPageState;
  defaults: SearchPageDefaults;
  /** The page's query string as the server saw it, tidied (unknown parameters kept). */
  search: string;
  /** What the endpoint answered for the URL's state, every page up to `page`. */
  result: SearchResultOf<H>;
  /** No results until a term, a facet or a product group is chosen (the page's `hideResults`). */
  hideResults?: boolean;
  /** The product groups to choose from, one at a time, as toggles (the page's `productGroups`). */
  productGroups?: string[];
}

/**
 * What a search adds to each card below its title, instead of the likes (the shop: price, stock,
 * the buy control and the product modal). A component, so it stays out of the island's props.
 */
export type CardPart<H extends SearchHit> = (props: { hit: H }) => ReactNode;

const labels = {
  products: { label: 'search.products.label', placeholder: 'search.products.placeholder' },
  shop: { label: 'search.products.label', placeholder: 'search.products.placeholder' },
  recipes: { label: 'search.recipes.label', placeholder: 'search.recipes.placeholder' },
  newsroom: { label: 'search.news.label', placeholder: 'search.news.placeholder' },
} as const;

/** The card picture of each search (the hits carry thumbnails). */
const cardPreset = {
  products: 'card-square',
  shop: 'card-square',
  recipes: 'three-by-two-crop',
  newsroom: 'third',
} as const;

/**
 * Product, recipe, newsroom and shop product search (spec §2): a search box, a dropdown of
 * checkboxes per facet category, removable chips for the selected facets and the term, 'N
 * tulosta', a grid of cards, a spinner while loading, 'Näytä lisää' and 'Ei tuloksia'. The URL is
 * the state: a new term or facet starts again from page 1 (a new history entry), 'Näytä lisää'
 * appends the next page, and back and forward show the results of their URL. Without script the
 * dropdowns are native disclosures inside a plain GET form.
 */
export function FacetSearch(props: FacetSearchProps) {
  return <FacetSearchView {...props} />;
}

/** The facet search, its cards with a search's own part (see `CardPart`). */
export function FacetSearchView<H extends SearchHit>(
  props: FacetSearchProps<H> & { CardPart?: CardPart<H> | undefined },
) {
  const t = useT();
  const id = useId();
  const search = useFacetSearch(props);
  const { state, result, selected, searchWith } = search;

  const displayed = result.facetCategories
    .map((c) => ({ ...c, facetTags: c.facetTags.filter((tag) => tag.display) }))
    .filter((c) => c.facetTags.length > 0);
  const categories = displayed.filter((c) => canNarrow(c, selected, result.totalCount));
  const tagNames = new Map(displayed.flatMap((c) => c.facetTags.map((x) => [x.id, x.name])));
  const group = state.productGroup || undefined;

  return (
    <div className={styles.search}>
      {/* biome-ignore lint/a11y/useSemanticElements: a search landmark also where <search> is unknown */}
      <form
        role="search"
        aria-label={t(labels[props.kind].label)}
        action={props.action}
        method="get"
        className={styles.form}
        onSubmit={search.onSubmit}
      >
        <SearchBox
          id={`${id}-q`}
          label={t(labels[props.kind].label)}
          placeholder={t(labels[props.kind].placeholder)}
          query={search.query}
          onQuery={search.setQuery}
          inputRef={search.inputRef}
          className={styles.field}
          // Without script, a new term keeps the chosen product group (a toggle sends its own).
          submit={
            props.productGroups?.length
              ? { name: 'productGroup', value: state.productGroup ?? '' }
              : undefined
          }
        />
        {props.productGroups?.length ? (
          <ProductGroupToggle
            groups={props.productGroups}
            chosen={group}
            onChoose={(choice) => searchWith({ productGroup: choice ?? '' })}
          />
        ) : null}
        {categories.length ? (
          <fieldset className={styles.facets}>
            <legend className="visually-hidden">{t('search.filters')}</legend>
            {categories.map((category) => (
              <FacetDropdown
                key={category.id}
                category={category}
                selected={selected}
                onToggle={search.toggleTag}
              />
            ))}
          </fieldset>
        ) : null}
        {state.pageSize !== props.defaults.pageSize ? (
          <input type="hidden" name="pageSize" value={state.pageSize} />
        ) : null}
        {state.contentGroup !== props.defaults.contentGroup ? (
          <input type="hidden" name="contentGroup" value={state.contentGroup} />
        ) : null}
      </form>
      <Chips chips={chipsOf(state, selected, tagNames, t)} facet={search} />
      <FacetResults {...props} id={id} facet={search} />
    </div>
  );
}

/**
 * The state of a facet search: the term being typed, the results shown, and the searches that
 * change them. The URL is the state (see `useUrlSearch`); after 'Näytä lisää' focus goes to the
 * first new card, after a removed chip to the chip that takes its place.
 */
function useFacetSearch<H extends SearchHit>(props: FacetSearchProps<H>) {
  const endpoint = FACET_SEARCH_ENDPOINTS[props.kind];
  const [query, setQuery] = useState(props.state.q);
  const [result, setResult] = useState(props.result);
  const inputRef = useRef<HTMLInputElement>(null);
  const chipsRef = useRef<HTMLUListElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const focusAfter = useRef<(() => void) | undefined>(undefined);

  const { state, loading, run, moreHref } = useUrlSearch({
    action: props.action,
    defaults: props.defaults,
    state: props.state,
    search: props.search,
    // A chosen facet or a removed chip shows at once; the results follow.
    optimistic: true,
    onRestore: (next) => setQuery(next.q),
    async fetchAndShow(next, move, signal) {
      const base = {
        language: props.language,
        q: next.q,
        pageSize: next.pageSize,
        contentGroup: next.contentGroup,
        facetTags: next.facetTags ?? [],
        productGroup: next.productGroup || undefined,
        hideResults: props.hideResults || undefined,
      };
      const answer =
        move === 'append'
          ? await fetchSearch<H>(endpoint, { ...base, page: next.page }, signal)
          : await fetchSearchPages<H>(endpoint, base, next.page, signal);
      if (move === 'append') {
        setResult((before) => ({ ...answer, hits: [...before.hits, ...answer.hits] }));
        const firstNew = result.hits.length;
        focusAfter.current = () =>
          listRef.current?.querySelectorAll<HTMLAnchorElement>('h3 a')[firstNew]?.focus();
      } else {
        setResult(answer);
      }
    },
  });

  useLayoutEffect(() => {
    if (!loading && focusAfter.current) {
      focusAfter.current();
      focusAfter.current = undefined;
    }
  });

  const searchWith = (change: Partial<SearchPageState>) =>
    void run({ ...state, ...change, page: 1 }, 'push');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    searchWith({ q: query.trim() });
  };

  const selected = new Set(state.facetTags ?? []);
  const toggleTag = (tagId: number) =>
    searchWith({
      facetTags: selected.has(tagId)
        ? [...selected].filter((x) => x !== tagId)
        : [...selected, tagId],
    });

  /** After a chip goes, focus moves to the chip that takes its place, else to the search box. */
  const removeChip = (index: number, change: Partial<SearchPageState>) => {
    focusAfter.current = () => {
      const chips = chipsRef.current?.querySelectorAll<HTMLButtonElement>('button') ?? [];
      (chips[Math.min(index, chips.length - 1)] ?? inputRef.current)?.focus();
    };
    if (change.q !== undefined) setQuery(change.q);
    searchWith(change);
  };

  const more = () => {
    if (!loading) void run({ ...state, page: state.page + 1 }, 'append');
  };

  return {
    state,
    loading,
    moreHref,
    query,
    setQuery,
    result,
    selected,
    inputRef,
    chipsRef,
    listRef,
    searchWith,
    onSubmit,
    toggleTag,
    removeChip,
    more,
  };
}

type FacetSearchState<H extends SearchHit> = ReturnType<typeof useFacetSearch<H>>;

interface Chip {
  key: string;
  name: string;
  label: string;
  tagId?: number;
  change?: Partial<SearchPageState>;
}

/** The removable chips of a search: its term, its product group and its chosen facet tags. */
function chipsOf(
  state: SearchPageState,
  selected: ReadonlySet<number>,
  tagNames: ReadonlyMap<number, string>,
  t: Translate,
): Chip[] {
  const term = state.q.trim();
  const group = state.productGroup || undefined;
  return [
    ...(term
      ? [
          {
            key: 'q',
            name: t('search.termChip', { name: term }),
            label: t('search.removeTerm', { name: term }),
          },
        ]
      : []),
    ...(group
      ? [
          {
            key: 'group',
            name: group,
            label: t('search.removeFilter', { name: group }),
            change: { productGroup: '' },
          },
        ]
      : []),
    ...[...selected].map((tagId) => {
      const name = tagNames.get(tagId) ?? String(tagId);
      return { key: `tag-${tagId}`, name, label: t('search.removeFilter', { name }), tagId };
    }),
  ];
}

/** The chips of the search; pressing one takes it off. */
function Chips<H extends SearchHit>(props: { chips: Chip[]; facet: FacetSearchState<H> }) {
  const t = useT();
  const { chips } = props;
  const { chipsRef, removeChip, selected } = props.facet;
  if (!chips.length) return null;
  return (
    <ul ref={chipsRef} className={styles.chips} aria-label={t('search.selected')}>
      {chips.map((chip, index) => (
        <li key={chip.key}>
          <button
            type="button"
            className={styles.chip}
            aria-label={chip.label}
            onClick={() =>
              removeChip(
                index,
                chip.change ??
                  (chip.tagId === undefined
                    ? { q: '' }
                    : { facetTags: [...selected].filter((x) => x !== chip.tagId) }),
              )
            }
          >
            {chip.name}
            <span aria-hidden="true" className={styles.chipX}>
              ×
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The results: their count or why there are none, the cards, and 'Näytä lisää'. */
function FacetResults<H extends SearchHit>(
  props: FacetSearchProps<H> & {
    CardPart?: CardPart<H> | undefined;
    id: string;
    facet: FacetSearchState<H>;
  },
) {
  const t = useT();
  const { id, facet } = props;
  const { state, loading, result, selected, listRef } = facet;
  const group = state.productGroup || undefined;
  return (
    <section aria-labelledby={`${id}-results`} aria-busy={loading} className={styles.results}>
      <h2 id={`${id}-results`} className="visually-hidden">
        {t('search.results')}
      </h2>
      <div className={styles.status}>
        {loading ? <span className={styles.spinner} aria-hidden="true" /> : null}
        <p role="status" className={styles.count}>
          {loading
            ? t('search.loading')
            : result.totalCount > 0
              ? t('search.resultCount', { count: result.totalCount })
              : props.hideResults && !state.q.trim() && !selected.size && !group
                ? t('search.hiddenUntilSearch')
                : t('search.noResultsShort')}
        </p>
      </div>
      {result.hits.length ? (
        <ul ref={listRef} className={styles.grid}>
          {result.hits.map((hit) => (
            <li key={`${hit.type}:${hit.contentId}`}>
              <HitCard hit={hit} kind={props.kind} CardPart={props.CardPart} />
            </li>
          ))}
        </ul>
      ) : null}
      {result.hasMore ? (
        <MoreResults href={facet.moreHref} busy={loading} onMore={facet.more} />
      ) : null}
    </section>
  );
}

/**
 * Whether a facet category is worth showing: one of its tags is chosen (so it can be taken off
 * again), or one would change the results, found in some of them but not in all. A category
 * whose every tag is in all the results or in none (the ingredient of a site whose recipes are
 * all chicken) would only offer choices that change nothing or are disabled. With the results
 * hidden until a search (`hideResults`) the total is 0 and every counted tag changes them.
 */
export function canNarrow(
  category: FacetCategory,
  selected: ReadonlySet<number>,
  totalCount: number,
): boolean {
  return category.facetTags.some(
    (tag) => selected.has(tag.id) || (tag.count > 0 && tag.count !== totalCount),
  );
}

/**
 * The product groups as toggle buttons (spec §4: selecting a product group toggles it): one
 * chosen at a time, pressed again to take it off. They submit the page's plain GET form with the
 * group they choose, so they work without script; with script they search in place.
 */
function ProductGroupToggle(props: {
  groups: string[];
  chosen: string | undefined;
  onChoose: (group: string | undefined) => void;
}) {
  const t = useT();
  return (
    <fieldset className={styles.groups}>
      <legend className={styles.groupsLabel}>{t('search.productGroups')}</legend>
      <ul className={styles.groupList}>
        {props.groups.map((group) => {
          const pressed = group.toLowerCase() === props.chosen?.toLowerCase();
          return (
            <li key={group}>
              <button
                type="submit"
                name="productGroup"
                value={pressed ? '' : group}
                aria-pressed={pressed}
                className={styles.groupToggle}
                onClick={(event) => {
                  event.preventDefault();
                  props.onChoose(pressed ? undefined : group);
                }}
              >
                {group}
              </button>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

/**
 * One facet category: a native disclosure (summary and panel) holding a checkbox per tag with its
 * count. Escape or a press outside closes it; tags nothing would match are disabled unless chosen.
 */
function FacetDropdown(props: {
  category: FacetCategory;
  selected: ReadonlySet<number>;
  onToggle: (tagId: number) => void;
}) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDetailsElement>(null);
  const chosen = props.category.facetTags.filter((tag) => props.selected.has(tag.id)).length;

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!ref.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return;
    event.preventDefault();
    setOpen(false);
    ref.current?.querySelector('summary')?.focus();
  };

  return (
    <details
      ref={ref}
      className={styles.dropdown}
      open={open}
      onToggle={(event) => setOpen(event.currentTarget.open)}
      onKeyDown={onKeyDown}
    >
      <summary className={styles.summary}>
        {props.category.name}
        {chosen ? (
          <span className={styles.badge}>{t('search.selectedCount', { count: chosen })}</span>
        ) : null}
      </summary>
      <fieldset className={styles.panel}>
        <legend className="visually-hidden">{props.category.name}</legend>
        {props.category.facetTags.map((tag) => {
          const checked = props.selected.has(tag.id);
          return (
            <label key={tag.id} className={styles.option}>
              <input
                type="checkbox"
                name="facetTags"
                value={tag.id}
                checked={checked}
                disabled={!checked && tag.count === 0}
                onChange={() => props.onToggle(tag.id)}
              />
              <span>{tag.name}</span>
              <span className={styles.tagCount}>({tag.count})</span>
            </label>
          );
        })}
      </fieldset>
    </details>
  );
}

function HitCard<H extends SearchHit>(props: {
  hit: H;
  kind: FacetSearchKind;
  CardPart?: CardPart<H> | undefined;
}) {
  const t = useT();
  const lang = useLang();
  const { hit, CardPart } = props;
  const preset = cardPreset[props.kind];
  const size = presetSize(preset, { width: 1, height: 1 });
  return (
    <article className={styles.card}>
      {hit.image ? (
        <img
          className={styles.cardImage}
          src={hit.image.replace(/([?&]preset=)[^&]*/, `$1${preset}`)}
          alt=""
          width={size.width}
          height={size.height}
          loading="lazy"
          decoding="async"
        />
      ) : null}
      <div className={styles.cardBody}>
        {props.kind === 'newsroom' ? (
          <p className={styles.cardMeta}>
            {hit.category ? <span>{hit.category}</span> : null}
            <time dateTime={hit.publishDate}>{formatDate(hit.publishDate, lang)}</time>
          </p>
        ) : null}
        {hit.novelty && props.kind !== 'newsroom' ? (
          <span className={styles.novelty}>{t('card.novelty')}</span>
        ) : null}
        <h3 className={styles.cardTitle}>
          <a href={hit.url} className={styles.cardLink}>
            {hit.title}
          </a>
        </h3>
        {CardPart ? (
          <div className={styles.cardPart}>
            <CardPart hit={hit} />
          </div>
        ) : props.kind === 'newsroom' ? (
          hit.teaserText ? (
            <p className={styles.teaser}>{hit.teaserText}</p>
          ) : null
        ) : (
          <p className={styles.cardMeta}>
            {hit.totalTime !== null && props.kind === 'recipes' ? (
              <span>
                <span className="visually-hidden">{t('card.totalTime')}: </span>
                {formatDuration(hit.totalTime)}
              </span>
            ) : null}
            <span>{t('card.likes', { count: hit.likeCount })}</span>
          </p>
        )}
      </div>
    </article>
  );
}
