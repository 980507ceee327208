import { AppError } from '../../../server/errors.ts';
import {
  confirmationUrl,
  type OrderRow,
  type PaymentDeps,
  startPayment,
} from './payments.server.ts';
import { type PlaceOrder, placeOrder } from './placement.server.ts';

/**
 * Checking out (spec §2 step 4, decisions 027 and 028): the order of the cart's hold is placed
 * (idempotent by `checkoutId`), then its payment is started, and the shopper goes on to `next`.
 * The checkout page's `purchase-form` post and the JSON order route both come here.
 *
 * A refused placement throws (409 naming what ran out; nothing is written). A payment that could
 * not be started leaves the placed order standing (the cart is empty now): the answer then has
 * `paymentError` and `next` is the order's confirmation page, which shows it waiting for payment;
 * each caller decides how to tell that.
 */
export interface CheckOutAnswer {
  order: OrderRow;
  /** False when the checkout had already placed this order (a repeated submit). */
  created: boolean;
  /** Where the browser goes: the provider's payment page, or the confirmation page. */
  next: string;
  paymentError?: AppError;
}

export async function checkOut(deps: PaymentDeps, input: PlaceOrder): Promise<CheckOutAnswer> {
  // At most a few placements at once in this process (decision 081): the rest of a burst waits at
  // the gate, in arrival order, instead of at the connection pool for each of its statements. The
  // payment is opened past the gate: a slow provider holds no place there.
  const place = () => placeOrder(deps, input);
  const { order, created } = await (deps.placements ? deps.placements.run(place) : place());
  try {
    const { next } = await startPayment(deps, order, input.paymentMethodCode);
    return { order, created, next };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { order, created, next: confirmationUrl(deps.shopUrl, order.id), paymentError: error };
  }
}
