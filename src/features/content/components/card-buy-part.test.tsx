import { renderToString } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadIslands } from '../../../app/islands.ts';
import { serverT } from '../../../i18n/catalogues.ts';
import { IslandScope, type ResolvedIslands } from '../../../render/island.server.tsx';
import { IslandRoot } from '../../../render/island-root.tsx';
import { PageProvider } from '../../../render/page-context.tsx';
import { getSite } from '../../../sites/registry.ts';
import { CardBuyControl } from '../../shop/card-buy.tsx';
import { pageBlocks } from '../blocks.ts';
import { cardGridWith } from '../card-grid/product-card-grid.tsx';
import type { CardDto } from '../card-grid/schemas.ts';
import { cardCarouselWith } from '../carousel/product-card-carousel.tsx';
import { Blocks } from './blocks.tsx';
import { Card } from './card.tsx';
import { cardBuyProps, offersBuying } from './card-buy-part.tsx';

/**
 * The shop's buy control in `lkProductCard`s (issue 15): in the card carousel and the card-grid
 * island as the app's registry joins them with the shop's part, and in a grid rendered on the
 * server as the shop's own island per card. Sold-out cards, cards without a price or code and
 * the other card types offer none.
 */

const fi = serverT('fi');
const image = { id: 7, width: 600, height: 600, alt: 'Kuva' };
const steak: CardDto = {
  type: 'lkProductCard',
  link: '/tuotteet/pihvi',
  header: 'Pihvi',
  image,
  price: 1290,
  svhPrice: 1590,
  stock: 7,
  productCode: '1001',
};
const giftCard: CardDto = {
  type: 'lkProductCard',
  link: '/tuotteet/lahjakortti-50',
  header: 'Lahjakortti 50 €',
  price: 5000,
  stock: null,
  isGiftCard: true,
  productCode: '9050',
};
const soldOut: CardDto = { ...steak, link: '/tuotteet/loppu', header: 'Loppu', stock: 0 };
const noPrice: CardDto = { type: 'lkProductCard', link: '/x', header: 'X', productCode: '1' };

const ProductCardCarousel = cardCarouselWith(CardBuyControl);
const ProductCardGrid = cardGridWith(CardBuyControl);

function inIsland(node: React.ReactNode): string {
  return renderToString(
    <IslandRoot lang="fi" t={fi}>
      {node}
    </IslandRoot>,
  );
}

/** Each card's markup (`<article …>…</article>`) by its title. */
function cardsOf(html: string): Map<string, string> {
  const cards = new Map<string, string>();
  for (const match of html.matchAll(/<article[\s\S]*?<\/article>/g)) {
    const title = /<a href="[^"]*"[^>]*>([^<]*)<\/a>/.exec(match[0])?.[1];
    if (title) cards.set(title.replace(/&amp;/g, '&'), match[0]);
  }
  return cards;
}

function expectControl(card: string | undefined, link: string, max: number) {
  expect(card).toBeDefined();
  expect(card).toContain('data-card-buy');
  expect(card).toContain(`action="${link}"`);
  expect(card).toContain('type="number"');
  expect(card).toContain('min="1"');
  expect(card).toContain(`max="${max}"`);
  expect(card).toContain(fi('shop.buy.add'));
  expect(card).toContain(fi('shop.buy.quantity'));
  expect(card).toContain(fi('shop.buy.unit'));
}

describe('which cards offer the buy control', () => {
  it('lkProductCards with a code and a price that are not sold out', () => {
    expect(cardBuyProps(steak)).toEqual({
      code: '1001',
      name: 'Pihvi',
      link: '/tuotteet/pihvi',
      price: 1290,
      svhPrice: 1590,
      stock: 7,
    });
    expect(cardBuyProps(giftCard)).toMatchObject({ code: '9050', stock: null });
    expect(cardBuyProps(soldOut)).toBeNull();
    expect(cardBuyProps(noPrice)).toBeNull();
    expect(cardBuyProps({ ...steak, type: 'productCardSe' })).toBeNull();
    expect(offersBuying([soldOut, noPrice])).toBe(false);
    expect(offersBuying([soldOut, steak])).toBe(true);
  });

  it('a card without the shop part shows no control (its title still links)', () => {
    const html = inIsland(<Card card={steak} />);
    expect(html).not.toContain('data-card-buy');
    expect(html).toContain('href="/tuotteet/pihvi"');
  });
});

describe('the card carousel and the card-grid island joined with the shop part', () => {
  for (const [name, html] of [
    [
      'carousel',
      () =>
        inIsland(
          <ProductCardCarousel
            header="Lihakaupan valikoimaa"
            cardType="lkProductCard"
            cards={[steak, giftCard, soldOut, noPrice]}
          />,
        ),
    ],
    [
      'grid',
      () =>
        inIsland(
          <ProductCardGrid
            header="Lahjakortit"
            cardType="lkProductCard"
            cards={[steak, giftCard, soldOut, noPrice]}
            expandable
          />,
        ),
    ],
  ] as const) {
    it(`${name}: quantity 1 up to the stock (or 99), add to cart, gift card marked, none when sold out`, () => {
      const cards = cardsOf(html());
      expect([...cards.keys()]).toEqual(['Pihvi', 'Lahjakortti 50 €', 'Loppu', 'X']);
      expectControl(cards.get('Pihvi'), '/tuotteet/pihvi', 7);
      const gift = cards.get('Lahjakortti 50 €');
      expectControl(gift, '/tuotteet/lahjakortti-50', 99);
      expect(gift).toContain(fi('product.giftCard'));
      const gone = cards.get('Loppu');
      expect(gone).toContain(fi('cards.soldOut'));
      expect(gone).not.toContain('data-card-buy');
      expect(gone).not.toContain(fi('shop.buy.add'));
      expect(cards.get('X')).not.toContain('data-card-buy');
    });
  }
});

describe('the blocks pick the island', () => {
  let islands: ResolvedIslands;
  beforeAll(async () => {
    islands = await loadIslands();
  });

  function render(blocks: unknown): string {
    const site = getSite('lihakauppa');
    if (!site) throw new Error('lihakauppa is a site');
    return renderToString(
      <PageProvider value={{ site, lang: 'fi', t: fi, path: '/', siteHref: (id) => `/${id}` }}>
        <IslandScope components={islands}>
          <Blocks blocks={pageBlocks.parse(blocks)} images={new Map()} />
        </IslandScope>
      </PageProvider>,
    );
  }
  const stored = (card: CardDto) => {
    const { image: _image, ...rest } = card;
    return rest;
  };

  it('a card carousel with products for sale is the joined island; without, the plain one', () => {
    const withBuying = render([
      { type: 'card-carousel', cardType: 'lkProductCard', cards: [steak, soldOut].map(stored) },
    ]);
    expect(withBuying).toContain('data-name="product-card-carousel"');
    expect(withBuying).toContain('data-hydrate="visible"');
    expect(withBuying).not.toContain('data-name="card-carousel"');
    expectControl(cardsOf(withBuying).get('Pihvi'), '/tuotteet/pihvi', 7);

    const without = render([
      { type: 'card-carousel', cardType: 'lkProductCard', cards: [soldOut].map(stored) },
    ]);
    expect(without).toContain('data-name="card-carousel"');
    expect(without).not.toContain('product-card-carousel');
    expect(without).not.toContain(fi('shop.buy.add'));
  });

  it('an expandable grid with products for sale is the joined grid island', () => {
    const html = render([
      {
        type: 'card-grid',
        cardType: 'lkProductCard',
        cards: [steak, giftCard, soldOut].map(stored),
      },
    ]);
    expect(html).toContain('data-name="product-card-grid"');
    expect(html).not.toContain('data-name="card-grid"');
    expectControl(cardsOf(html).get('Lahjakortti 50 €'), '/tuotteet/lahjakortti-50', 99);
  });

  it('a grid without script of its own gives each card for sale the shop island, on view', () => {
    const html = render([
      { type: 'card-grid', cardType: 'lkProductCard', cards: [steak, soldOut].map(stored) },
    ]);
    expect(html).not.toContain('data-name="product-card-grid"');
    expect(html).not.toContain('data-name="card-grid"');
    const islandsIn = [...html.matchAll(/<k-island data-name="([^"]+)" data-hydrate="([^"]+)"/g)];
    expect(islandsIn.map((m) => [m[1], m[2]])).toEqual([['shop-card-buy', 'visible']]);
    const cards = cardsOf(html);
    expectControl(cards.get('Pihvi'), '/tuotteet/pihvi', 7);
    expect(cards.get('Loppu')).not.toContain('k-island');
    const props = /data-name="shop-card-buy"[^>]*data-props="([^"]*)"/.exec(html)?.[1] ?? '';
    expect(JSON.parse(props.replace(/&quot;/g, '"'))).toEqual({
      code: '1001',
      name: 'Pihvi',
      link: '/tuotteet/pihvi',
      price: 1290,
      svhPrice: 1590,
      stock: 7,
    });
  });
});
