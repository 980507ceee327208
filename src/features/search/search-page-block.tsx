import { Island } from '../../render/island.server.tsx';
import { usePage } from '../../render/page-context.tsx';
import type { SearchPageProps } from './search-page.tsx';

/**
 * The site search page's body: the search as an island, with the results the server found for
 * the URL (props from `loadSearchPage` in `index.server.ts`).
 */
export function SearchPageBlock(props: { search: SearchPageProps }) {
  const { lang } = usePage();
  return (
    <div className="container">
      <Island name="site-search" props={props.search} lang={lang} hydrate="idle" />
    </div>
  );
}
