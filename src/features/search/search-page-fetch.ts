import { searchParamsOf } from './params.ts';
import type { SearchHit, SearchQuery, SearchResultOf } from './schemas.ts';

/**
 * Pages 1 to `through` of a search, asked at once and joined in order (spec §4: a search page
 * loaded with `page` above 1 shows every page up to it). Facets and the total come from the
 * first answer, `hasMore` from the last.
 */
export async function fetchSearchPages<H extends SearchHit = SearchHit>(
  endpoint: string,
  query: Partial<SearchQuery> & { pageSize: number },
  through: number,
  signal: AbortSignal,
): Promise<SearchResultOf<H>> {
  const pages = Array.from({ length: Math.max(1, through) }, (_, i) => i + 1);
  const results = await Promise.all(
    pages.map((page) => fetchSearch<H>(endpoint, { ...query, page }, signal)),
  );
  const first = results[0] as SearchResultOf<H>;
  const last = results.at(-1) as SearchResultOf<H>;
  return { ...first, hits: results.flatMap((r) => r.hits), hasMore: last.hasMore };
}

/** One page of a search endpoint (`H`: what its hits carry, as the endpoint's schema says). */
export async function fetchSearch<H extends SearchHit = SearchHit>(
  endpoint: string,
  query: Partial<SearchQuery>,
  signal: AbortSignal,
): Promise<SearchResultOf<H>> {
  const response = await fetch(`${endpoint}?${searchParamsOf(query)}`, {
    signal,
    headers: { accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`search answered ${response.status}`);
  return (await response.json()) as SearchResultOf<H>;
}
