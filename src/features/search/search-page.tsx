import { type FormEvent, useId, useLayoutEffect, useRef, useState } from 'react';
import { useT } from '../../i18n/react.tsx';
import type {
  ContentGroup,
  ContentGroupOption,
  SearchHit,
  SearchLanguage,
  SearchPageDefaults,
  SearchPageState,
  SearchResult,
} from './schemas.ts';
import { MoreResults, SearchBox } from './search-box.tsx';
import styles from './search-page.module.css';
import { fetchSearch, fetchSearchPages } from './search-page-fetch.ts';
import { useUrlSearch } from './use-url-search.ts';

export const CONTENT_SEARCH_PATH = '/api/search/content/';

export interface SearchPageProps {
  /** The search page's own URL (with the language prefix). */
  action: string;
  language: SearchLanguage;
  state: SearchPageState;
  defaults: SearchPageDefaults;
  /** The content-group radio options (`/api/facets/groups`). */
  groups: ContentGroupOption[];
  /** The results the server found for the URL's state; null without a query. */
  result: SearchResult | null;
  /** The page's query string as the server saw it, tidied (unknown parameters kept). */
  search?: string;
}

/**
 * The site search page (spec §2): a text box, a radio filter of content groups, the hits, 'Näytä
 * lisää' while more exist, and 'Hakutuloksia ei löytynyt' when nothing is found. The state lives
 * in the URL: the server renders it, and without script the form and the 'show more' link are
 * plain GET navigations. With script a new search or group resets to page 1, 'show more' appends
 * the next page, and the URL follows without a reload.
 */
export function SiteSearch(props: SearchPageProps) {
  const t = useT();
  const id = useId();
  const search = useSiteSearch(props);
  const { query, state, loading, searched, total, hits } = search;

  return (
    <div className={styles.page}>
      {/* biome-ignore lint/a11y/useSemanticElements: a search landmark also where <search> is unknown */}
      <form
        role="search"
        // The header's search box is a search landmark named 'Hae sivustolta' too.
        aria-label={t('search.pageLabel')}
        action={props.action}
        method="get"
        className={styles.form}
        onSubmit={search.onSubmit}
      >
        <SearchBox
          id={`${id}-q`}
          label={t('search.label')}
          placeholder={t('search.placeholder')}
          query={query}
          onQuery={search.setQuery}
        />
        {props.groups.length > 1 ? (
          <ContentGroupChoice
            groups={props.groups}
            chosen={state.contentGroup}
            onChoose={(contentGroup) => {
              search.setState((s) => ({ ...s, contentGroup }));
              search.searchFrom(contentGroup);
            }}
          />
        ) : null}
        {state.pageSize !== props.defaults.pageSize ? (
          <input type="hidden" name="pageSize" value={state.pageSize} />
        ) : null}
      </form>

      <section aria-labelledby={`${id}-results`} aria-busy={loading} className={styles.results}>
        <h2 id={`${id}-results`} className="visually-hidden">
          {t('search.results')}
        </h2>
        <p role="status" className={styles.count}>
          {loading
            ? t('search.loading')
            : searched
              ? total > 0
                ? t('search.resultCount', { count: total })
                : t('search.noResults')
              : ''}
        </p>
        {hits.length ? (
          <ol ref={search.listRef} className={styles.list}>
            {hits.map((hit) => (
              <HitItem key={`${hit.type}:${hit.contentId}`} hit={hit} />
            ))}
          </ol>
        ) : null}
        {search.hasMore ? <MoreResults href={search.moreHref} onMore={search.more} /> : null}
      </section>
    </div>
  );
}

/** The content groups to search in, as radio buttons; choosing one searches again. */
function ContentGroupChoice(props: {
  groups: SearchPageProps['groups'];
  chosen: ContentGroup;
  onChoose: (group: ContentGroup) => void;
}) {
  const t = useT();
  return (
    <fieldset className={styles.groups}>
      <legend>{t('search.contentGroup')}</legend>
      {props.groups.map((group) => (
        <label key={group.value} className={styles.group}>
          <input
            type="radio"
            name="contentGroup"
            value={group.value}
            checked={props.chosen === group.value}
            onChange={() => props.onChoose(group.value as ContentGroup)}
          />
          {group.key}
        </label>
      ))}
    </fieldset>
  );
}

/** One hit of the site search: its thumbnail, title link, category and teaser. */
function HitItem(props: { hit: SearchHit }) {
  const { hit } = props;
  return (
    <li className={styles.hit}>
      {hit.image ? (
        <img className={styles.thumb} src={hit.image} alt="" width={96} height={96} />
      ) : (
        <span className={styles.thumb} />
      )}
      <span className={styles.text}>
        <a href={hit.url} className={styles.title}>
          {hit.title}
        </a>
        {hit.category ? <span className={styles.category}>{hit.category}</span> : null}
        {hit.teaserText ? <span className={styles.teaser}>{hit.teaserText}</span> : null}
      </span>
    </li>
  );
}

/**
 * The site search's state: the term being typed and the hits shown, kept in the URL by
 * `useUrlSearch`; after 'Näytä lisää' the first new hit takes focus.
 */
function useSiteSearch(props: SearchPageProps) {
  const [query, setQuery] = useState(props.state.q);
  const [hits, setHits] = useState<SearchHit[]>(props.result?.hits ?? []);
  const [total, setTotal] = useState(props.result?.totalCount ?? 0);
  const [hasMore, setHasMore] = useState(props.result?.hasMore ?? false);
  const [searched, setSearched] = useState(props.result !== null);
  const listRef = useRef<HTMLOListElement>(null);
  const firstNew = useRef<number | undefined>(undefined);

  const { state, setState, loading, run, moreHref } = useUrlSearch({
    action: props.action,
    defaults: props.defaults,
    state: props.state,
    search: props.search ?? '',
    onRestore: (next) => setQuery(next.q),
    async fetchAndShow(next, move, signal) {
      const q = next.q.trim();
      if (!q) {
        // Back to a URL without a query: nothing is searched, as on the server.
        setHits([]);
        setTotal(0);
        setHasMore(false);
        setSearched(false);
        return;
      }
      const base = {
        q,
        language: props.language,
        pageSize: next.pageSize,
        contentGroup: next.contentGroup,
      };
      const result =
        move === 'append'
          ? await fetchSearch(CONTENT_SEARCH_PATH, { ...base, page: next.page }, signal)
          : await fetchSearchPages(CONTENT_SEARCH_PATH, base, next.page, signal);
      setHits((before) => (move === 'append' ? [...before, ...result.hits] : result.hits));
      // After 'Näytä lisää' the first new hit takes focus, so a keyboard user reads on from there.
      if (move === 'append') firstNew.current = hits.length;
      setTotal(result.totalCount);
      setHasMore(result.hasMore);
      setSearched(true);
    },
  });

  useLayoutEffect(() => {
    if (loading || firstNew.current === undefined) return;
    listRef.current
      ?.querySelectorAll<HTMLAnchorElement>('li > span > a')
      [firstNew.current]?.focus();
    firstNew.current = undefined;
  });

  const searchFrom = (contentGroup: ContentGroup) => {
    const q = query.trim();
    if (!q) return;
    void run({ ...state, q, contentGroup, page: 1 }, 'push');
  };

  const more = () => {
    if (!loading) void run({ ...state, page: state.page + 1 }, 'append');
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    searchFrom(state.contentGroup);
  };

  return {
    query,
    setQuery,
    hits,
    total,
    hasMore,
    searched,
    listRef,
    state,
    setState,
    loading,
    moreHref,
    searchFrom,
    onSubmit,
    more,
  };
}
