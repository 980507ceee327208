/**
 * The site that sells: the meat shop. Its id is also a path segment of the shop's API
 * (`/api/v1/lihakauppa/…`, `/api/search/lihakauppa-products`). A module of its own, so browser
 * code that builds those paths does not bundle the site registry.
 */
export const SHOP_SITE_ID = 'lihakauppa';
