import { createPage, createSiteWith } from '../../tests/factories/index.ts';
import type { Database } from '../db/client.ts';

/**
 * The page the page-cache tests change and read again: a content page of the brand site under
 * its home page (the navigation's top level), titled `title` to begin with.
 */
export async function createCachedPage(db: Database, title: string) {
  const home = await createPage(db, {
    siteId: 'sibylla',
    path: '/',
    type: 'home',
    title: 'Sibylla',
  });
  const page = { siteId: 'sibylla', path: '/yritys', type: 'content', parentId: home.id };
  return createPage(db, { ...page, title });
}

/**
 * The shop's pages the page-cache tests visit: its home page, the cart page and the content page
 * `/toimitukset` with `text` as its one paragraph.
 */
export async function createShopPages(db: Database, text: string) {
  await createSiteWith(db, { siteId: 'lihakauppa', title: 'Lihakauppa' }, [
    { path: '/ostoskori', type: 'cart', title: 'Ostoskori' },
    {
      path: '/toimitukset',
      type: 'content',
      title: 'Toimitukset',
      blocks: [{ type: 'rich-text', html: `<p>${text}</p>` }],
    },
  ]);
}
