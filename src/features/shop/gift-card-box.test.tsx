import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { serverT } from '../../i18n/catalogues.ts';
import { IslandRoot } from '../../render/island-root.tsx';
import { ShopApiError } from './api.ts';
import { cartOf } from './cart.test-support.ts';
import type { CartNotice } from './cart-form.ts';
import { CouponBox } from './coupon-box.tsx';
import { addedCard, dropGiftCard, enterGiftCard, GiftCardBox } from './gift-card-box.tsx';
import { money } from './money.ts';
import { type Cart, type CartGiftCard, centsOfMoney, moneyString } from './schemas.ts';

/**
 * The gift-card box (cart page, beside the coupon box): what adding and removing a code comes to
 * (the island's states: refused before any call, entered, entered already, the API's refusals)
 * and what it renders in each state, also as the plain form without script.
 */

const fi = serverT('fi');
const html = (node: ReactNode) =>
  renderToString(
    <IslandRoot lang="fi" t={fi}>
      {node}
    </IslandRoot>,
  );

function cartWith(cards: CartGiftCard[]): Cart {
  const used = cards.reduce((sum, card) => sum + (centsOfMoney(card.amount) ?? 0), 0);
  return cartOf(4520, { giftCards: cards, usedGiftCardAmount: moneyString(used) });
}

const card20: CartGiftCard = { id: 7, balance: '20,00', amount: '20,00' };
const refusedBy = (status: number, code?: string) =>
  new ShopApiError(status, code, undefined, code ? { errors: { code } } : {});

describe('entering a gift card code', () => {
  it('refuses an empty or malformed code before any call, and keeps no cart', async () => {
    const send = vi.fn();
    const onCart = vi.fn();
    expect(await enterGiftCard(fi, '   ', [], send, onCart)).toEqual({
      refused: fi('shop.giftCard.empty'),
    });
    expect(await enterGiftCard(fi, 'ab', [], send, onCart)).toEqual({
      refused: fi('shop.giftCard.invalid'),
    });
    expect(await enterGiftCard(fi, 'LAHJA<script>', [], send, onCart)).toEqual({
      refused: fi('shop.giftCard.invalid'),
    });
    expect(send).not.toHaveBeenCalled();
    expect(onCart).not.toHaveBeenCalled();
  });

  it('sends the code in upper case; a new card in the answer is entered, announced masked', async () => {
    const answer = cartWith([card20]);
    const send = vi.fn(async () => answer);
    const onCart = vi.fn();
    const outcome = await enterGiftCard(fi, ' lahja-demo-2000 ', [], send, onCart);
    expect(send).toHaveBeenCalledWith('LAHJA-DEMO-2000');
    expect(onCart).toHaveBeenCalledWith(answer);
    expect(outcome).toEqual({ done: fi('shop.giftCardBox.added', { code: '•••• 2000' }) });
    expect(JSON.stringify(outcome)).not.toContain('LAHJA-DEMO');
  });

  it('a card the cart listed already is refused as entered (the answer is still shown)', async () => {
    const answer = cartWith([card20]);
    const onCart = vi.fn();
    const outcome = await enterGiftCard(
      fi,
      'LAHJA-DEMO-2000',
      [card20],
      async () => answer,
      onCart,
    );
    expect(outcome).toEqual({ refused: fi('shop.giftCard.duplicate') });
    expect(onCart).toHaveBeenCalledWith(answer);
    expect(addedCard([card20], cartWith([card20, { ...card20, id: 8 }]))?.id).toBe(8);
  });

  it("shows the API's refusals: unknown card, too many tries, anything else", async () => {
    const fail = (error: unknown) => async () => {
      throw error;
    };
    const onCart = vi.fn();
    expect(
      await enterGiftCard(
        fi,
        'EIOLE-1234',
        [],
        fail(refusedBy(400, 'shop.giftCard.invalid')),
        onCart,
      ),
    ).toEqual({ refused: fi('shop.giftCard.invalid') });
    expect(await enterGiftCard(fi, 'EIOLE-1234', [], fail(refusedBy(429)), onCart)).toEqual({
      refused: fi('shop.giftCard.tooMany'),
    });
    expect(
      await enterGiftCard(fi, 'EIOLE-1234', [], fail(refusedBy(400, 'validation.invalid')), onCart),
    ).toEqual({ refused: fi('shop.giftCard.error') });
    expect(
      await enterGiftCard(fi, 'EIOLE-1234', [], fail(new TypeError('offline')), onCart),
    ).toEqual({ refused: fi('shop.giftCard.error') });
    expect(onCart).not.toHaveBeenCalled();
  });

  it('removes a card by its id', async () => {
    const send = vi.fn(async () => cartWith([]));
    const onCart = vi.fn();
    expect(await dropGiftCard(fi, 7, send, onCart)).toEqual({
      done: fi('shop.giftCardBox.removed'),
    });
    expect(send).toHaveBeenCalledWith(7);
    expect(onCart).toHaveBeenCalledOnce();
    expect(await dropGiftCard(fi, 7, async () => Promise.reject(refusedBy(500)), onCart)).toEqual({
      refused: fi('shop.giftCard.error'),
    });
  });
});

describe('the gift-card box as rendered', () => {
  const form = (notice: CartNotice | null) => ({ token: 'tok', notice });

  it('has a labelled field, its button and the anti-forgery field; no error, no list when empty', () => {
    const page = html(<GiftCardBox giftCards={[]} onCart={() => {}} form={form(null)} />);
    const field = /<input[^>]*name="giftCard"[^>]*>/.exec(page)?.[0] ?? '';
    const id = /id="([^"]+)"/.exec(field)?.[1];
    expect(page).toContain(`<label for="${id}">${fi('shop.giftCardBox.label')}</label>`);
    expect(field).not.toContain('aria-invalid');
    expect(field).not.toContain('aria-describedby');
    expect(page).toContain('name="_xsrf" value="tok"');
    expect(page).toContain('value="add-giftcard"');
    expect(page).toContain(fi('shop.giftCardBox.add'));
    expect(page).not.toContain('data-error-summary');
    expect(page).not.toContain(fi('shop.giftCardBox.applied'));
  });

  it('lists each card by balance and what it pays, with a named remove button', () => {
    const page = html(
      <GiftCardBox
        giftCards={[card20, { id: 9, balance: '50,00', amount: '25,20' }]}
        onCart={() => {}}
        form={form(null)}
      />,
    );
    expect(page).toContain(`aria-label="${fi('shop.giftCardBox.applied')}"`);
    expect(page).toContain(
      fi('shop.giftCardBox.card', { balance: money('20,00'), amount: money('20,00') }),
    );
    expect(page).toContain(
      fi('shop.giftCardBox.card', { balance: money('50,00'), amount: money('25,20') }),
    );
    expect(page).toContain(fi('shop.giftCardBox.remove', { balance: money('50,00') }));
    // Without script the remove buttons post the box's form with the card's id.
    expect(page).toContain('value="remove-giftcard:9"');
  });

  it('after a refused post: the summary takes the focus, the field keeps what was typed with its error', () => {
    const page = html(
      <GiftCardBox
        giftCards={[]}
        onCart={() => {}}
        form={form({ errors: [{ key: 'shop.giftCard.invalid' }], giftCard: 'eiole-1234' })}
      />,
    );
    const field = /<input[^>]*name="giftCard"[^>]*>/.exec(page)?.[0] ?? '';
    expect(field).toContain('value="eiole-1234"');
    expect(field).toContain('aria-invalid="true"');
    const errorId = /aria-describedby="([^"]+)"/.exec(field)?.[1];
    expect(page).toContain(`id="${errorId}"`);
    const summary = /<div[^>]*data-error-summary[^>]*>.*?<\/div>/s.exec(page)?.[0] ?? '';
    expect(summary).toContain('role="alert"');
    expect(summary).toContain('autofocus');
    expect(summary).toContain(`href="#${/id="([^"]+)"/.exec(field)?.[1]}"`);
    expect(summary).toContain(fi('shop.giftCard.invalid'));
  });

  it("announces a plain-form post's success politely; the coupon box's notices stay its own", () => {
    const added = html(
      <GiftCardBox
        giftCards={[card20]}
        onCart={() => {}}
        form={form({ errors: [], done: 'giftCardAdded', doneCode: '•••• 2000' })}
      />,
    );
    expect(added).toMatch(
      new RegExp(
        `role="status" aria-live="polite">${fi('shop.giftCardBox.added', { code: '•••• 2000' })}<`,
      ),
    );
    const coupon = html(
      <CouponBox
        couponCodes={[]}
        onCart={() => {}}
        form={form({ errors: [{ key: 'shop.giftCard.empty' }], giftCard: '' })}
      />,
    );
    expect(coupon).not.toContain('data-error-summary');
    expect(coupon).not.toContain(fi('shop.giftCard.empty'));
  });
});
