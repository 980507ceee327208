import { count } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPage, createShopProducts } from '../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { Visitor } from '../../../tests/helpers/visitor.ts';
import { serverT } from '../../i18n/catalogues.ts';
import { FORM_TOKEN_FIELD } from '../../server/form-posts.ts';
import { sessions } from '../../server/tables.ts';
import { NOTICE_COOKIE } from './cart-form.server.ts';
import { XSRF_FIELD } from './cart-form.ts';
import { giftCardCodeHash } from './orders/gift-cards.server.ts';
import { GIFT_CARD_ADD_API } from './orders/schemas.ts';
import { CART_API, type Cart, cartSchema } from './schemas.ts';
import { coupons, giftCards } from './tables.ts';

/**
 * The cart page as a plain form (decision 022): posts to /ostoskori change the cart through the
 * same use cases as the API, answer 303 to /ostoskori#tuotteet and show what happened once; a
 * refused post writes nothing, a post without the page's anti-forgery token is 403.
 */

const HOST = 'lihakauppa.localhost';
const fi = serverT('fi');
const code = { steak: '5200001', few: '5200002' };
const GIFT = { 'LAHJA-TEST-2000': 2000, 'LAHJA-TEST-5000': 5000 };
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.db;
  await createShopProducts(db, [
    {
      path: '/tuotteet/pihvi',
      code: code.steak,
      name: 'Naudan ulkofilepihvi 400 g',
      priceCents: 1290,
      stock: null,
    },
    {
      path: '/tuotteet/vahissa',
      code: code.few,
      name: 'Karitsan kare 600 g',
      priceCents: 2490,
      stock: 3,
    },
  ]);
  await createPage(db, { siteId: 'lihakauppa', path: '/', type: 'home', title: 'Lihakauppa' });
  await createPage(db, {
    siteId: 'lihakauppa',
    path: '/ostoskori',
    type: 'cart',
    title: 'Ostoskori',
  });
  await db.insert(coupons).values([{ siteId: 'lihakauppa', code: 'TEN', percentOff: 10 }]);
  await db.insert(giftCards).values(
    Object.entries(GIFT).map(([code, cents]) => ({
      siteId: 'lihakauppa',
      codeHash: giftCardCodeHash(code),
      initialCents: cents,
      balanceCents: cents,
    })),
  );
});

afterAll(async () => {
  await t?.close();
});

class Shopper extends Visitor {
  constructor() {
    super(t.app, { host: HOST });
  }

  /** The anti-forgery token the cart page's forms carry. */
  token = '';

  async openCart(): Promise<string> {
    const page = await this.get('/ostoskori');
    expect(page.statusCode, page.body).toBe(200);
    const html = page.body;
    const match = /name="_xsrf" value="([^"]+)"/.exec(html);
    this.token = match?.[1] ?? '';
    return html;
  }

  async cart(): Promise<Cart> {
    const response = await this.get(`${CART_API}/load?language=fi`);
    return cartSchema.parse(response.json());
  }

  async quantities() {
    return Object.fromEntries((await this.cart()).lineItems.map((l) => [l.code, l.quantity]));
  }

  /** A plain form post as a browser without script sends it (no anti-forgery header). */
  send(fields: Record<string, string>, options: { host?: string; remoteAddress?: string } = {}) {
    return this.post('/ostoskori', {
      xsrf: false,
      ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(options.host ? { host: options.host } : {}),
      },
      payload: new URLSearchParams(fields).toString(),
    });
  }

  /** A post with the page's token. */
  submit(fields: Record<string, string>, options: { remoteAddress?: string } = {}) {
    return this.send({ _xsrf: this.token, ...fields }, options);
  }

  static async withCart(lines: Record<string, number>): Promise<Shopper> {
    const shopper = new Shopper();
    await shopper.openCart();
    for (const [productCode, quantity] of Object.entries(lines)) {
      const added = await shopper.post(
        `${CART_API}/add?language=fi&code=${productCode}&quantity=${quantity}`,
      );
      expect(added.statusCode, added.body).toBe(200);
    }
    // The first store gave the session a new token: the page has the matching form token.
    await shopper.openCart();
    return shopper;
  }
}

/** 303 back to the cart with the notice; a refused code comes back without the fragment. */
function expectBack(response: LightMyRequestResponse, location = '/ostoskori#tuotteet') {
  expect(response.statusCode, response.body).toBe(303);
  expect(response.headers.location).toBe(location);
  expect(response.cookies.some((c) => c.name === NOTICE_COOKIE)).toBe(true);
}

function expectProblem(response: LightMyRequestResponse, status: number) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
}

const sessionRows = async () => {
  const [row] = await t.app.db.select({ n: count() }).from(sessions);
  return row?.n ?? 0;
};

const escaped = (text: string) => text.replaceAll("'", '&#x27;');

describe('the cart page without script', () => {
  it('names its token field as the form-post guard reads it (browser code has its own copy)', () => {
    expect(XSRF_FIELD).toBe(FORM_TOKEN_FIELD);
  });

  it('is a form posting to /ostoskori with the token, named quantity fields and the update button', async () => {
    const shopper = await Shopper.withCart({ [code.steak]: 1 });
    const html = await shopper.openCart();
    const form = /<form class="[^"]*" action="([^"]+)" method="([^"]+)">/.exec(html);
    expect(form?.slice(1)).toEqual(['/ostoskori', 'post']);
    expect(shopper.token).toBe(shopper.xsrfToken);
    expect(html).toContain(`name="quantity.${code.steak}"`);
    expect(html).toContain(fi('shop.cart.update'));
    // The line's buttons submit until the island runs.
    expect(html).toContain(`value="set:${code.steak}:2"`);
    expect(html).toContain(`value="set:${code.steak}:0"`);
  });

  it('changes quantities, answers 303 to /ostoskori#tuotteet and shows the notice once', async () => {
    const shopper = await Shopper.withCart({ [code.steak]: 1, [code.few]: 1 });
    expectBack(
      await shopper.submit({
        action: 'update',
        [`quantity.${code.steak}`]: ' 4 ',
        [`quantity.${code.few}`]: '2',
      }),
    );
    expect(await shopper.quantities()).toEqual({ [code.steak]: 4, [code.few]: 2 });
    const page = await shopper.openCart();
    expect(page).toContain(fi('shop.cart.updated'));
    // Shown once: the answer clears the cookie, a reload shows nothing.
    expect(shopper.jar.has(NOTICE_COOKIE)).toBe(false);
    expect(await shopper.openCart()).not.toContain(fi('shop.cart.updated'));
  });

  it('a line button sets its quantity and 0 removes the line', async () => {
    const shopper = await Shopper.withCart({ [code.steak]: 2, [code.few]: 1 });
    expectBack(
      await shopper.submit({
        action: `set:${code.steak}:3`,
        [`quantity.${code.steak}`]: '2',
        [`quantity.${code.few}`]: '1',
      }),
    );
    expect(await shopper.quantities()).toEqual({ [code.steak]: 3, [code.few]: 1 });
    await shopper.openCart();
    expectBack(await shopper.submit({ action: `set:${code.few}:0` }));
    expect(await shopper.quantities()).toEqual({ [code.steak]: 3 });
  });

  it('refuses quantity 100, letters and more than the stock: nothing written, texts and typed values shown', async () => {
    const shopper = await Shopper.withCart({ [code.steak]: 1, [code.few]: 1 });
    for (const [value, text] of [
      ['100', fi('shop.buy.range', { min: 0, max: 99 })],
      ['kaksi', fi('shop.buy.range', { min: 0, max: 99 })],
      ['-1', fi('shop.buy.range', { min: 0, max: 99 })],
    ] as const) {
      expectBack(
        await shopper.submit({
          action: 'update',
          [`quantity.${code.steak}`]: '5',
          [`quantity.${code.few}`]: value,
        }),
      );
      expect(await shopper.quantities()).toEqual({ [code.steak]: 1, [code.few]: 1 });
      const page = await shopper.openCart();
      expect(page).toContain(fi('shop.cart.notChanged'));
      expect(page).toContain(text);
      expect(page).toContain(`value="${value}"`);
    }
    // Beyond stock (3): the other line's change is not written either.
    expectBack(
      await shopper.submit({
        action: 'update',
        [`quantity.${code.steak}`]: '5',
        [`quantity.${code.few}`]: '4',
      }),
    );
    expect(await shopper.quantities()).toEqual({ [code.steak]: 1, [code.few]: 1 });
    const page = await shopper.openCart();
    expect(page).toContain(`Karitsan kare 600 g: ${fi('shop.quantity.tooMany', { max: 3 })}`);
  });

  it('refuses a NUL byte (400), a malformed action (400) and a foreign code field (400), writing nothing', async () => {
    const shopper = await Shopper.withCart({ [code.steak]: 1 });
    expectProblem(
      await shopper.submit({ action: 'update', [`quantity.${code.steak}`]: '2\u0000' }),
      400,
    );
    expectProblem(await shopper.submit({ action: 'drop-table' }), 400);
    expectProblem(await shopper.submit({ action: 'set:5200001:100' }), 400);
    expectProblem(await shopper.submit({ 'quantity.<script>': '1' }), 400);
    expect(await shopper.quantities()).toEqual({ [code.steak]: 1 });
  });

  it('is 403 without the page token, with a wrong one or with the cookie value of another visitor', async () => {
    const shopper = await Shopper.withCart({ [code.steak]: 1 });
    const other = await Shopper.withCart({ [code.steak]: 1 });
    const rows = await sessionRows();
    expectProblem(await shopper.send({ action: `set:${code.steak}:0` }), 403);
    expectProblem(
      await shopper.send({ _xsrf: 'x'.repeat(43), action: `set:${code.steak}:0` }),
      403,
    );
    expectProblem(await shopper.send({ _xsrf: other.token, action: `set:${code.steak}:0` }), 403);
    // The anti-forgery header alone is not the form's token.
    const headerOnly = await shopper.post('/ostoskori', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `action=set%3A${code.steak}%3A0`,
    });
    expectProblem(headerOnly, 403);
    expect(await shopper.quantities()).toEqual({ [code.steak]: 1 });
    expect(await sessionRows()).toBe(rows);
  });

  it('adds from a product page without a token when the browser says the post is from this site (decision 055)', async () => {
    const shopper = await Shopper.withCart({ [code.steak]: 1 });
    // The product page is shared: its buy form posts `add:<code>` and the quantity, no token.
    const page = await shopper.get('/tuotteet/vahissa');
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/<form(?=[^>]*method="post")(?=[^>]*action="\/ostoskori")[^>]*>/);
    expect(page.body).toContain(`name="action" value="add:${code.few}"`);
    const sameOrigin = { 'sec-fetch-site': 'same-origin' };
    const add = (fields: Record<string, string>, headers: Record<string, string> = sameOrigin) =>
      shopper.post('/ostoskori', {
        xsrf: false,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        payload: new URLSearchParams(fields).toString(),
      });
    expectBack(await add({ action: `add:${code.few}`, quantity: '2' }));
    expect(await shopper.quantities()).toEqual({ [code.steak]: 1, [code.few]: 2 });
    const cart = await shopper.openCart();
    expect(cart).toContain(escaped(fi('shop.buy.added')));
    // On top of what the cart holds: one more of the steak.
    expectBack(await add({ action: `add:${code.steak}`, quantity: '1' }));
    // Beyond the stock (3), a quantity of 0 or letters: refused with the texts, nothing written.
    expectBack(await add({ action: `add:${code.few}`, quantity: '2' }));
    expect(await shopper.openCart()).toContain(escaped(fi('shop.quantity.tooMany', { max: 3 })));
    expectBack(await add({ action: `add:${code.few}`, quantity: '0' }));
    expectBack(await add({ action: `add:${code.few}`, quantity: 'x' }));
    expect(await shopper.quantities()).toEqual({ [code.steak]: 2, [code.few]: 2 });
    // From another site, by Sec-Fetch-Site or Origin: 403, nothing written.
    expectProblem(
      await add({ action: `add:${code.steak}`, quantity: '1' }, { 'sec-fetch-site': 'cross-site' }),
      403,
    );
    expectProblem(
      await add({ action: `add:${code.steak}`, quantity: '1' }, { origin: 'https://evil.example' }),
      403,
    );
    // Only the add goes without a token: a line change from this site still needs it.
    expectProblem(await add({ action: `set:${code.steak}:0` }), 403);
    expect(await shopper.quantities()).toEqual({ [code.steak]: 2, [code.few]: 2 });
  });

  it('is not found on a site that does not sell', async () => {
    const shopper = await Shopper.withCart({ [code.steak]: 1 });
    const response = await shopper.send(
      { _xsrf: shopper.token, action: 'update' },
      { host: 'sibylla.localhost' },
    );
    expect(response.statusCode).toBe(404);
  });

  it('enters and removes coupon codes with the coupon box texts', async () => {
    const shopper = await Shopper.withCart({ [code.steak]: 2 });
    expectBack(await shopper.submit({ action: 'add-coupon', code: ' ten ' }));
    expect((await shopper.cart()).couponCodes).toEqual(['TEN']);
    expect(await shopper.openCart()).toContain(fi('shop.couponBox.added', { code: 'TEN' }));

    for (const [typed, key] of [
      ['TEN', 'shop.coupon.duplicate'],
      ['EIOLE', 'shop.coupon.invalid'],
      ['', 'shop.coupon.empty'],
      ['<b>', 'shop.coupon.invalid'],
    ] as const) {
      // Refused: back without the fragment, so the box's error summary can take the focus.
      expectBack(await shopper.submit({ action: 'add-coupon', code: typed }), '/ostoskori');
      const page = await shopper.openCart();
      expect(page).toContain(escaped(fi(key)));
      expect(page).toContain('data-error-summary');
      if (typed === 'EIOLE') expect(page).toContain('value="EIOLE"');
    }
    expect((await shopper.cart()).couponCodes).toEqual(['TEN']);

    expectBack(await shopper.submit({ action: 'remove-coupon:TEN' }));
    expect((await shopper.cart()).couponCodes).toEqual([]);
    expect(await shopper.openCart()).toContain(fi('shop.couponBox.removed', { code: 'TEN' }));
  });

  it('enters a gift card, refuses bad, unknown and repeated codes with the summary, and removes it', async () => {
    const shopper = await Shopper.withCart({ [code.steak]: 2 });
    const total = (await shopper.cart()).total;
    expectBack(await shopper.submit({ action: 'add-giftcard', giftCard: ' lahja-test-2000 ' }));
    let cart = await shopper.cart();
    expect(cart.usedGiftCardAmount).toBe('20,00');
    expect(cart.total).toBe(total);
    expect(cart.giftCards).toEqual([{ id: expect.any(Number), balance: '20,00', amount: '20,00' }]);
    const [card] = cart.giftCards;
    let page = await shopper.openCart();
    // The announcement names the card by its last characters only; the page never holds the code.
    expect(page).toContain(fi('shop.giftCardBox.added', { code: '•••• 2000' }));
    expect(page).not.toContain('LAHJA-TEST-2000');
    expect(page).toContain('data-sum="usedGiftCardAmount">-20,00');
    expect(page).toContain(`value="remove-giftcard:${card?.id}"`);
    expect(page).not.toContain('data-error-summary');
    expect(page).toMatch(/<title>Ostoskori/);

    for (const [typed, key, kept] of [
      ['', 'shop.giftCard.empty', ''],
      ['<b>', 'shop.giftCard.invalid', '&lt;b&gt;'],
      ['EIOLE-1234', 'shop.giftCard.invalid', 'EIOLE-1234'],
      ['Lahja-Test-2000', 'shop.giftCard.duplicate', ''],
    ] as const) {
      expectBack(await shopper.submit({ action: 'add-giftcard', giftCard: typed }), '/ostoskori');
      page = await shopper.openCart();
      // The failed-submit pattern: the title says so, the summary takes the focus and links to
      // the field, the field keeps what was typed with its error tied to it.
      expect(page).toMatch(/<title>Virhe: Ostoskori/);
      const summary = /<div[^>]*data-error-summary[^>]*>.*?<\/div>/s.exec(page)?.[0] ?? '';
      expect(summary).toContain('autofocus');
      expect(summary).toContain(escaped(fi(key)));
      const field = /<input[^>]*name="giftCard"[^>]*>/.exec(page)?.[0] ?? '';
      expect(field).toContain('aria-invalid="true"');
      expect(field).toContain(`value="${kept}"`);
      const fieldId = /id="([^"]+)"/.exec(field)?.[1];
      expect(summary).toContain(`href="#${fieldId}"`);
      const errorId = /aria-describedby="([^"]+)"/.exec(field)?.[1];
      expect(page).toContain(`id="${errorId}"`);
    }
    expect((await shopper.cart()).giftCards).toHaveLength(1);

    // A second card pays what the first leaves: 25,80 € of goods, 20 + 5,80 of the 50 € card.
    expectBack(await shopper.submit({ action: 'add-giftcard', giftCard: 'LAHJA-TEST-5000' }));
    cart = await shopper.cart();
    expect(cart.giftCards.map((c) => [c.balance, c.amount])).toEqual([
      ['20,00', '20,00'],
      ['50,00', '5,80'],
    ]);
    expect(cart.usedGiftCardAmount).toBe(cart.total);

    expectBack(await shopper.submit({ action: `remove-giftcard:${card?.id}` }));
    cart = await shopper.cart();
    expect(cart.giftCards.map((c) => c.balance)).toEqual(['50,00']);
    expect(await shopper.openCart()).toContain(fi('shop.giftCardBox.removed'));
    // Removing one the cart does not hold changes nothing; a malformed id is 400.
    expectBack(await shopper.submit({ action: `remove-giftcard:${card?.id}` }));
    expectProblem(await shopper.submit({ action: 'remove-giftcard:abc' }), 400);
    expect((await shopper.cart()).giftCards).toHaveLength(1);
  });

  it('counts gift card tries of the form and the API against one budget of 20 a minute', async () => {
    const shopper = await Shopper.withCart({ [code.steak]: 1 });
    const remoteAddress = '192.0.2.13';
    for (let i = 0; i < 10; i++) {
      const api = await shopper.post(`${GIFT_CARD_ADD_API}?language=fi&code=EIOLE-${1000 + i}`, {
        remoteAddress,
      });
      expect(api.statusCode).toBe(400);
      expectBack(
        await shopper.submit(
          { action: 'add-giftcard', giftCard: `EIOLE-${2000 + i}` },
          { remoteAddress },
        ),
        '/ostoskori',
      );
    }
    // The 21st try: refused before the code is looked up, a real code too.
    expectBack(
      await shopper.submit(
        { action: 'add-giftcard', giftCard: 'LAHJA-TEST-2000' },
        { remoteAddress },
      ),
      '/ostoskori',
    );
    expect(await shopper.openCart()).toContain(escaped(fi('shop.giftCard.tooMany')));
    expect((await shopper.cart()).giftCards).toEqual([]);
    const api = await shopper.post(`${GIFT_CARD_ADD_API}?language=fi&code=LAHJA-TEST-2000`, {
      remoteAddress,
    });
    expect(api.statusCode).toBe(429);
    expect(api.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('a refused post of a visitor without a cart stores no session', async () => {
    const shopper = new Shopper();
    await shopper.openCart();
    // An empty cart's page has no forms (only the way back to the products): the posts carry the
    // visitor's token as a page opened before, or another tab, would.
    shopper.token = shopper.xsrfToken ?? '';
    const rows = await sessionRows();
    expectBack(await shopper.submit({ action: 'add-coupon', code: 'EIOLE' }), '/ostoskori');
    expectBack(
      await shopper.submit({ action: 'add-giftcard', giftCard: 'EIOLE-1234' }),
      '/ostoskori',
    );
    expectBack(await shopper.submit({ action: 'update', [`quantity.${code.few}`]: '9' }));
    expect(await sessionRows()).toBe(rows);
  });

  it('ignores a notice cookie the server did not sign', async () => {
    const shopper = await Shopper.withCart({ [code.steak]: 1 });
    shopper.jar.set(
      NOTICE_COOKIE,
      encodeURIComponent(JSON.stringify({ errors: [{ key: 'shop.coupon.invalid' }] })),
    );
    const page = await shopper.openCart();
    expect(page).not.toContain(escaped(fi('shop.coupon.invalid')));
  });
});
