import { useEffect, useRef, useState } from 'react';
import {
  type SearchPageDefaults,
  type SearchPageState,
  searchPageHref,
  searchPageStateOf,
} from './params.ts';

/** `push` a new search (a history entry), `append` the next page, `restore` after back/forward. */
export type SearchMove = 'push' | 'append' | 'restore';

export interface UrlSearchOptions {
  /** The page's own URL (with the language prefix). */
  action: string;
  defaults: SearchPageDefaults;
  /** The state the server rendered, and its tidied query string. */
  state: SearchPageState;
  search: string;
  /** Fetches and shows the results of a state; throws when it fails or is aborted. */
  fetchAndShow(next: SearchPageState, move: SearchMove, signal: AbortSignal): Promise<void>;
  /** The browser went back or forward to a URL with this state (its results follow). */
  onRestore?(next: SearchPageState): void;
  /** A new state shows at once, before its results, and goes back if they fail. */
  optimistic?: boolean;
}

/**
 * The URL as the state of a search page (spec §2): a new search is a history entry, 'Näytä
 * lisää' replaces the entry's URL, back and forward show the results of their URL (a change of
 * the hash alone searches nothing), and a newer search aborts the one in flight.
 */
export function useUrlSearch(options: UrlSearchOptions) {
  const [state, setState] = useState(options.state);
  const [current, setCurrent] = useState(options.search);
  const [loading, setLoading] = useState(false);
  const inFlight = useRef<AbortController | undefined>(undefined);
  /** The query string the results belong to. */
  const shown = useRef<string | undefined>(undefined);
  const latest = useRef(options);
  latest.current = options;

  const run = async (next: SearchPageState, move: SearchMove) => {
    const { action, defaults, fetchAndShow, optimistic } = latest.current;
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    const before = state;
    setLoading(true);
    if (optimistic && move !== 'append') setState(next);
    try {
      await fetchAndShow(next, move, controller.signal);
      setState(next);
      if (move !== 'restore') {
        const href = searchPageHref(
          action,
          next,
          defaults,
          new URLSearchParams(window.location.search),
        );
        window.history[move === 'append' ? 'replaceState' : 'pushState'](null, '', href);
      }
      setCurrent(window.location.search.slice(1));
      shown.current = window.location.search;
    } catch {
      // Aborted by a newer search (which shows its own state), or failed: the page keeps what
      // its results show.
      if (optimistic && !controller.signal.aborted) setState(before);
    } finally {
      if (inFlight.current === controller) {
        inFlight.current = undefined;
        setLoading(false);
      }
    }
  };
  const runRef = useRef(run);
  runRef.current = run;

  useEffect(() => {
    shown.current = window.location.search;
    const onPop = () => {
      if (window.location.search === shown.current) return;
      const params = new URLSearchParams(window.location.search);
      const next = searchPageStateOf(params, latest.current.defaults);
      latest.current.onRestore?.(next);
      void runRef.current(next, 'restore');
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  /** The no-script link of 'Näytä lisää': the next page, other parameters kept. */
  const moreHref = searchPageHref(
    options.action,
    { ...state, page: state.page + 1 },
    options.defaults,
    new URLSearchParams(current),
  );

  return { state, setState, loading, run, moreHref };
}
