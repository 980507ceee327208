import { Island } from '../../render/island.server.tsx';
import { usePage } from '../../render/page-context.tsx';
import type { FacetSearchProps } from './facet-search.tsx';

/**
 * A product, recipe, newsroom or shop product search as an island, with the results the server
 * found for the URL (props from `loadFacetSearch` in `index.server.ts`).
 */
export function FacetSearchBlock(props: { search: FacetSearchProps }) {
  const { lang } = usePage();
  return <Island name="facet-search" props={props.search} lang={lang} />;
}
