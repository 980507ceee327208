import { describe, expect, it } from 'vitest';
import {
  addToLocalCart,
  emptyCart,
  fromAllowedOrigin,
  type LocalCart,
  localCartOf,
  parseLocalCart,
  parseShopMessage,
  parseSiteMessage,
} from './protocol.ts';

const shop = 'http://lihakauppa.localhost:3000';
const brands = ['http://jyvabroiler.localhost:3000', 'https://www.jyva.example'];

describe('cart sync: origins', () => {
  const frame = { name: 'the shop frame' };

  it('accepts a brand site listed by the registry, from any window when none is expected', () => {
    expect(fromAllowedOrigin({ origin: brands[0] as string, source: {} }, brands)).toBe(true);
    expect(fromAllowedOrigin({ origin: 'https://www.jyva.example', source: null }, brands)).toBe(
      true,
    );
  });

  it('refuses other origins, near misses, null and *', () => {
    for (const origin of [
      'http://sibylla.localhost:3000',
      'http://jyvabroiler.localhost:3001',
      'https://jyvabroiler.localhost:3000',
      'http://jyvabroiler.localhost:3000.evil.example',
      'https://www.jyva.example.evil.example',
      'null',
      '*',
      '',
    ]) {
      expect(fromAllowedOrigin({ origin, source: {} }, brands), origin).toBe(false);
    }
  });

  it('on the brand side, needs the shop origin and the shop frame as the sender', () => {
    expect(fromAllowedOrigin({ origin: shop, source: frame }, [shop], frame)).toBe(true);
    // The right origin from another window (say, a second shop tab the page opened).
    expect(fromAllowedOrigin({ origin: shop, source: {} }, [shop], frame)).toBe(false);
    // The frame's window with another origin: it was navigated away from the shop.
    expect(
      fromAllowedOrigin({ origin: 'http://evil.localhost:3000', source: frame }, [shop], frame),
    ).toBe(false);
  });
});

describe('cart sync: messages the shop accepts', () => {
  it('takes sync-cart and add with a code and a quantity (1 when left out)', () => {
    expect(parseSiteMessage({ type: 'sync-cart' })).toEqual({ type: 'sync-cart' });
    expect(parseSiteMessage({ type: 'add', code: '100012', quantity: 3 })).toEqual({
      type: 'add',
      code: '100012',
      quantity: 3,
    });
    expect(parseSiteMessage({ type: 'add', code: '100012' })).toEqual({
      type: 'add',
      code: '100012',
      quantity: 1,
    });
  });

  it('refuses anything else: other types, bad codes, quantities outside 1–99 or not whole', () => {
    for (const data of [
      null,
      'sync-cart',
      [],
      { type: 'load' },
      { type: 'add' },
      { type: 'add', code: '' },
      { type: 'add', code: '1 OR 1=1' },
      { type: 'add', code: 'x'.repeat(41) },
      { type: 'add', code: '100012', quantity: 0 },
      { type: 'add', code: '100012', quantity: 100 },
      { type: 'add', code: '100012', quantity: 1.5 },
      { type: 'add', code: '100012', quantity: '2' },
      { type: 'add', code: '100012', quantity: -1 },
    ]) {
      expect(parseSiteMessage(data), JSON.stringify(data)).toBeNull();
    }
  });
});

describe('cart sync: the local cart', () => {
  const cart: LocalCart = {
    lineItems: [
      { code: '100012', quantity: 2 },
      { code: '100020', quantity: 1 },
    ],
    lineItemCount: 2,
    loading: false,
    total: '31,80',
  };

  it('sums an add with the line of the same code and keeps the count of lines', () => {
    const next = addToLocalCart(cart, '100012', 3);
    expect(next.lineItems).toEqual([
      { code: '100012', quantity: 5 },
      { code: '100020', quantity: 1 },
    ]);
    expect(next.lineItemCount).toBe(2);
    expect(next.loading).toBe(true);
    // The cart it was made from is left as it was.
    expect(cart.lineItems[0]).toEqual({ code: '100012', quantity: 2 });
  });

  it('adds a new code as a new line, and never sums past 99', () => {
    const added = addToLocalCart(cart, '100033', 1);
    expect(added.lineItems.at(-1)).toEqual({ code: '100033', quantity: 1 });
    expect(added.lineItemCount).toBe(3);
    expect(addToLocalCart(cart, '100012', 99).lineItems[0]).toEqual({
      code: '100012',
      quantity: 99,
    });
    expect(addToLocalCart(emptyCart, 'A1', 2).lineItems).toEqual([{ code: 'A1', quantity: 2 }]);
  });

  it('reduces the shop’s cart to code and quantity per line, count, total, not loading', () => {
    const line = { code: '100012', quantity: 2, name: 'Naudan jauheliha', linePrice: '9,80' };
    const reduced = localCartOf({ lineItems: [line], lineItemCount: 1, total: '9,80' });
    expect(reduced).toEqual({
      lineItems: [{ code: '100012', quantity: 2 }],
      lineItemCount: 1,
      loading: false,
      total: '9,80',
    });
  });

  it('reads back a stored cart and refuses a broken one', () => {
    expect(parseLocalCart(JSON.parse(JSON.stringify(cart)))).toEqual(cart);
    expect(parseLocalCart({ lineItems: [{ code: '1', quantity: 1 }] })).toEqual({
      lineItems: [{ code: '1', quantity: 1 }],
      lineItemCount: 1,
      loading: false,
      total: null,
    });
    expect(parseLocalCart({ lineItems: 'x' })).toBeNull();
    expect(parseLocalCart({ lineItems: [{ code: '1', quantity: 0 }] })).toBeNull();
    expect(
      parseLocalCart({
        lineItems: [
          { code: '1', quantity: 1 },
          { code: '1', quantity: 2 },
        ],
      }),
    ).toBeNull();
  });

  it('takes the shop’s answer only as a cart message', () => {
    expect(parseShopMessage({ type: 'cart', cart })).toEqual({ type: 'cart', cart });
    expect(parseShopMessage({ type: 'cart', cart, refused: true })).toMatchObject({
      refused: true,
    });
    expect(parseShopMessage({ type: 'sync-cart' })).toBeNull();
    expect(parseShopMessage({ type: 'cart', cart: { lineItems: null } })).toBeNull();
  });
});

describe('cart sync: message ids, warnings and the hand-over (decision 021)', () => {
  const cart: LocalCart = { lineItems: [], lineItemCount: 0, loading: false, total: '0,00' };
  const token = 'A'.repeat(43);

  it('takes an add with an id and a hand-over request with one; refuses bad ids', () => {
    expect(parseSiteMessage({ type: 'add', code: '1', quantity: 2, id: 7 })).toEqual({
      type: 'add',
      code: '1',
      quantity: 2,
      id: 7,
    });
    expect(parseSiteMessage({ type: 'handover', id: 3 })).toEqual({ type: 'handover', id: 3 });
    for (const data of [
      { type: 'handover' },
      { type: 'handover', id: -1 },
      { type: 'handover', id: 'x' },
      { type: 'add', code: '1', id: 1.5 },
      { type: 'add', code: '1', id: '1' },
    ]) {
      expect(parseSiteMessage(data), JSON.stringify(data)).toBeNull();
    }
  });

  it('reads the shop’s answer with its id and warnings', () => {
    expect(parseShopMessage({ type: 'cart', cart, id: 4, warnings: ['a', 'b'] })).toEqual({
      type: 'cart',
      cart,
      id: 4,
      warnings: ['a', 'b'],
    });
    // Warnings that are not all strings are dropped, not trusted.
    expect(parseShopMessage({ type: 'cart', cart, warnings: [1] })).toEqual({ type: 'cart', cart });
  });

  it('takes a hand-over answer only with a path of the shop’s hand-over page', () => {
    expect(
      parseShopMessage({ type: 'handover', id: 1, path: `/ostoskori/siirto?token=${token}` }),
    ).toEqual({ type: 'handover', id: 1, path: `/ostoskori/siirto?token=${token}` });
    for (const path of [
      'https://evil.example/ostoskori/siirto?token=x',
      '//evil.example/',
      `/ostoskori/siirto?token=${token}&next=//evil.example`,
      `/ostoskori?token=${token}`,
      null,
      5,
    ]) {
      expect(parseShopMessage({ type: 'handover', id: 1, path })).toEqual({
        type: 'handover',
        id: 1,
        path: null,
      });
    }
    expect(parseShopMessage({ type: 'handover', path: '/x' })).toBeNull();
  });
});
