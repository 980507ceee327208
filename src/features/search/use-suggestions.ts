import { useCallback, useEffect, useRef, useState } from 'react';
import { useLang } from '../../i18n/react.tsx';
import {
  MIN_QUERY_LENGTH,
  QUICK_SEARCH_DEBOUNCE_MS,
  SUGGESTIONS_PAGE_SIZE,
  searchLanguageOf,
  searchParamsOf,
} from './params.ts';
import type { SearchResult } from './schemas.ts';

export const SUGGESTIONS_PATH = '/api/search/suggestions/';

export type SuggestionStatus = 'idle' | 'loading' | 'done';

/**
 * The quick search's text and its suggestions: from three characters on they are asked 500 ms
 * after the last keystroke (`change`), or at once (`askNow`); a new request aborts the one in
 * flight, whose answer is then ignored. `close` forgets the suggestions and anything pending;
 * a failed request closes too (the form still works). Timers and requests end with the
 * component.
 */
export function useSuggestions() {
  const lang = useLang();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inFlight = useRef<AbortController | undefined>(undefined);
  const [query, setQuery] = useState('');
  const [status, setStatus] = useState<SuggestionStatus>('idle');
  const [result, setResult] = useState<SearchResult | null>(null);
  const [active, setActive] = useState(-1);

  const close = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
    inFlight.current?.abort();
    inFlight.current = undefined;
    setStatus('idle');
    setResult(null);
    setActive(-1);
  }, []);

  const ask = useCallback(
    async (q: string) => {
      inFlight.current?.abort();
      const controller = new AbortController();
      inFlight.current = controller;
      setStatus('loading');
      const params = searchParamsOf({
        q,
        language: searchLanguageOf(lang),
        pageSize: SUGGESTIONS_PAGE_SIZE,
      });
      try {
        const response = await fetch(`${SUGGESTIONS_PATH}?${params}`, {
          signal: controller.signal,
          headers: { accept: 'application/json' },
        });
        if (!response.ok) throw new Error(`suggestions answered ${response.status}`);
        const body = (await response.json()) as SearchResult;
        if (controller.signal.aborted) return;
        inFlight.current = undefined;
        setResult(body);
        setActive(-1);
        setStatus('done');
      } catch {
        // Aborted: a newer request is on its way and keeps the loading text. Failed: the form
        // still works, so the panel just closes.
        if (!controller.signal.aborted) close();
      }
    },
    [lang, close],
  );

  const change = (value: string) => {
    setQuery(value);
    clearTimeout(timer.current);
    if (value.trim().length < MIN_QUERY_LENGTH) {
      close();
      return;
    }
    timer.current = setTimeout(() => {
      timer.current = undefined;
      void ask(value.trim());
    }, QUICK_SEARCH_DEBOUNCE_MS);
  };

  const askNow = () => {
    clearTimeout(timer.current);
    timer.current = undefined;
    void ask(query.trim());
  };

  useEffect(() => close, [close]);

  return {
    query,
    setQuery,
    status,
    result,
    hits: result?.hits ?? [],
    active,
    setActive,
    /** Whether suggestions are asked for after the pause. */
    pending: () => timer.current !== undefined,
    change,
    askNow,
    close,
  };
}
