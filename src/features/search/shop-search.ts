import { z } from 'zod';
import { productCardSchema } from '../shop/index.server.ts';
import { searchHitSchema, searchResultSchema } from './schemas.ts';

/**
 * The shop's product search (`/api/search/lihakauppa-products`) answers the search result of every
 * search, and each hit of a shop product carries the product's card data (spec §3): the grid shows
 * it as an `lkProductCard` with price, price per kilo, discount, stock and the buy control.
 * The browser takes only its types; the server validates with the schemas.
 */

export const shopSearchHitSchema = searchHitSchema
  .extend({
    /** The shop product's card data; null for a hit that is not a shop product (a recipe). */
    product: productCardSchema.nullable(),
  })
  .meta({ id: 'ShopSearchHit' });
export type ShopSearchHit = z.infer<typeof shopSearchHitSchema>;

export const shopSearchResultSchema = searchResultSchema
  .extend({ hits: z.array(shopSearchHitSchema) })
  .meta({ id: 'ShopSearchResult' });
export type ShopSearchResult = z.infer<typeof shopSearchResultSchema>;
