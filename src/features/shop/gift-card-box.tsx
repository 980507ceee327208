import type { MessageKey } from '../../i18n/fi.ts';
import { useT } from '../../i18n/react.tsx';
import type { Translate } from '../../i18n/translate.ts';
import { addGiftCard, removeGiftCard, ShopApiError } from './api.ts';
import { CART_ACTIONS } from './cart-form.ts';
import type { CartFormProps } from './cart-form-fields.tsx';
import { CodeEntryBox, type CodeEntryOutcome } from './code-entry-box.tsx';
import { money } from './money.ts';
import {
  GIFT_CARD_CODE_PATTERN,
  GIFT_CARD_ERRORS,
  maskGiftCardCode,
  normaliseGiftCardCode,
} from './orders/schemas.ts';
import type { Cart, CartGiftCard } from './schemas.ts';

const giftCardMessages = new Set<string>(Object.values(GIFT_CARD_ERRORS));

/** The text of a refusal: the API's message for the code, too many tries, or the general one. */
export function giftCardRefusal(t: Translate, error: unknown): string {
  if (!(error instanceof ShopApiError)) return t(GIFT_CARD_ERRORS.general);
  if (error.status === 429) return t(GIFT_CARD_ERRORS.tooMany);
  if (error.fieldError && giftCardMessages.has(error.fieldError)) {
    return t(error.fieldError as MessageKey);
  }
  return t(GIFT_CARD_ERRORS.general);
}

/**
 * What adding a code came to, from the carts before and after: a card the cart did not list
 * before was entered; otherwise the cart held it already.
 */
export function addedCard(before: readonly CartGiftCard[], after: Cart): CartGiftCard | undefined {
  const known = new Set(before.map((card) => card.id));
  return after.giftCards.find((card) => !known.has(card.id));
}

/**
 * Enters a typed code through `send` (the API's `addgiftcard`): an empty or malformed code is
 * refused without a call; a card the cart listed before is refused as entered already.
 */
export async function enterGiftCard(
  t: Translate,
  typed: string,
  entered: readonly CartGiftCard[],
  send: (code: string) => Promise<Cart>,
  onCart: (cart: Cart) => void,
): Promise<CodeEntryOutcome> {
  const code = normaliseGiftCardCode(typed);
  if (!code) return { refused: t(GIFT_CARD_ERRORS.empty) };
  if (!GIFT_CARD_CODE_PATTERN.test(code)) return { refused: t(GIFT_CARD_ERRORS.invalid) };
  try {
    const cart = await send(code);
    onCart(cart);
    return addedCard(entered, cart)
      ? { done: t('shop.giftCardBox.added', { code: maskGiftCardCode(code) }) }
      : { refused: t(GIFT_CARD_ERRORS.duplicate) };
  } catch (caught) {
    return { refused: giftCardRefusal(t, caught) };
  }
}

/** Removes a card by its id through `send` (the API's `removegiftcard`). */
export async function dropGiftCard(
  t: Translate,
  id: number,
  send: (id: number) => Promise<Cart>,
  onCart: (cart: Cart) => void,
): Promise<CodeEntryOutcome> {
  try {
    onCart(await send(id));
    return { done: t('shop.giftCardBox.removed') };
  } catch (caught) {
    return { refused: giftCardRefusal(t, caught) };
  }
}

/**
 * The gift-card box of the cart page, beside the coupon box: a gift card's code pays part or all
 * of the order (`usedGiftCardAmount` in the summary). The cart keeps only a code's hash, so an
 * entered card shows as its balance and what it pays, and is removed by its id; the code typed
 * shows back masked (`•••• 5000`) only in the announcement. An empty or malformed code is refused
 * here already, the rest with the API's texts. The box itself is the shared `CodeEntryBox`.
 */
export function GiftCardBox(props: {
  giftCards: CartGiftCard[];
  onCart(cart: Cart): void;
  form?: CartFormProps | undefined;
}) {
  const t = useT();
  return (
    <CodeEntryBox
      kind="giftCard"
      items={props.giftCards.map((card) => ({
        key: String(card.id),
        label: t('shop.giftCardBox.card', {
          balance: money(card.balance),
          amount: money(card.amount),
        }),
        removeLabel: t('shop.giftCardBox.remove', { balance: money(card.balance) }),
        removeAction: `${CART_ACTIONS.removeGiftCard}:${card.id}`,
      }))}
      form={props.form}
      done={(notice) =>
        notice.done === 'giftCardAdded'
          ? t('shop.giftCardBox.added', { code: notice.doneCode ?? '' })
          : notice.done === 'giftCardRemoved'
            ? t('shop.giftCardBox.removed')
            : ''
      }
      add={(typed) => enterGiftCard(t, typed, props.giftCards, addGiftCard, props.onCart)}
      remove={(item) => dropGiftCard(t, Number(item.key), removeGiftCard, props.onCart)}
    />
  );
}
