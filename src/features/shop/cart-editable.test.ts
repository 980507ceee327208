import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { postForm } from '../../../tests/helpers/shop.ts';
import type { Visitor } from '../../../tests/helpers/visitor.ts';
import {
  addToCart,
  buyer,
  CODES,
  createCheckoutShop,
  held,
} from './orders/checkout.test-support.ts';
import { CHECKOUT_HOLD_API, checkoutSchema } from './orders/schemas.ts';
import { CART_API, CHECKOUT_API, cartSchema } from './schemas.ts';

/**
 * `isEditable` of the cart (spec §3, §2; decision 101): false while the cart holds a delivery
 * time, which is what the checkout's payment step `#maksu` stands on; letting the hold go, or any
 * change of the cart (decision 027), makes it editable again.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await createCheckoutShop(t.app.db);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

async function load(v: Visitor) {
  const res = await v.get(`${CART_API}/load?language=fi`);
  expect(res.statusCode, res.body).toBe(200);
  return cartSchema.parse(res.json());
}

async function checkout(v: Visitor) {
  const res = await v.get(`${CHECKOUT_API}?language=fi`);
  expect(res.statusCode, res.body).toBe(200);
  return checkoutSchema.parse(res.json());
}

describe('the cart is not editable while it holds a delivery time', () => {
  it('load and the checkout say so; letting the hold go gives the editing back', async () => {
    const b = await buyer(t.app);
    await addToCart(b, CODES.plain, 2);
    expect((await load(b)).isEditable).toBe(true);

    await held(b);
    expect((await load(b)).isEditable).toBe(false);
    expect((await checkout(b)).cart.isEditable).toBe(false);

    expect((await b.delete(CHECKOUT_HOLD_API)).statusCode).toBe(204);
    expect((await load(b)).isEditable).toBe(true);
  });

  it('a change of the cart lets the hold go, and its answer is editable', async () => {
    const b = await buyer(t.app);
    await addToCart(b, CODES.plain, 1);
    await held(b);
    const changed = await b.post(
      `${CART_API}/changequantity?language=fi&code=${CODES.plain}&quantity=3`,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(cartSchema.parse(changed.json()).isEditable).toBe(true);
    expect((await checkout(b)).hold).toBeNull();
  });

  it('the cart page without script lets the hold go with its own button', async () => {
    const b = await buyer(t.app);
    await addToCart(b, CODES.plain, 1);
    await held(b);
    const res = await postForm(b, '/ostoskori', { action: 'release-hold' });
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe('/ostoskori#tuotteet');
    expect((await checkout(b)).hold).toBeNull();
    expect((await load(b)).isEditable).toBe(true);
  });
});
