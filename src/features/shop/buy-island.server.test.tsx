import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { IslandScope } from '../../render/island.server.tsx';
import { BuyControl } from './buy-control.tsx';
import { type BuyRow, StockAndBuyControl } from './buy-island.server.tsx';
import type { CartSyncConfig } from './cart-sync/site-cart.ts';

const product: BuyRow = {
  code: '1001',
  name: 'Naudan sisäfilee',
  productGroup: 'Naudanliha',
  priceCents: 4990,
  svhPriceCents: null,
  stock: 12,
};

const sync: CartSyncConfig = {
  frameUrl: 'http://lihakauppa.localhost/cart-sync',
  shopOrigin: 'http://lihakauppa.localhost',
  frameTitle: 'Ostoskori',
};

function render(withSync: boolean): string {
  return renderToString(
    <IslandScope components={{ 'shop-buy-control': BuyControl }}>
      <StockAndBuyControl
        product={product}
        lang="fi"
        stockClassName={undefined}
        {...(withSync ? { sync } : {})}
      />
    </IslandScope>,
  );
}

/** The hydration trigger of the page's buy control (decision 066). */
function triggerOf(html: string): string | undefined {
  return /<k-island data-name="shop-buy-control" data-hydrate="([a-z]+)"/.exec(html)?.[1];
}

describe('product page buy control', () => {
  it("hydrates at idle time on the shop's own pages, where its form posts without script", () => {
    const html = render(false);
    expect(triggerOf(html)).toBe('idle');
    expect(html).toMatch(/<form[^>]*method="post"/);
  });

  it('hydrates at load on a brand site, which adds only through the shop frame', () => {
    const html = render(true);
    expect(triggerOf(html)).toBe('load');
    expect(html).not.toMatch(/<form[^>]*method="post"/);
  });
});
