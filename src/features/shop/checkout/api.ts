import { ShopApiError, xsrfToken } from '../api.ts';
import { CUSTOMER_API, type Customer } from '../customer/schemas.ts';
import type { Checkout, CheckoutHold } from '../orders/schemas.ts';
import { CHECKOUT_API } from '../schemas.ts';

/**
 * The browser side of the checkout's calls (the checkout contract of issue 13, items 2 and 3):
 * the cart with its delivery hold, taking and releasing the hold, and the customer (spec §3, §7).
 */

export type { CheckoutHold };
/** `GET /checkout` and `POST /checkout/hold`: the cart and its live hold. */
export type CheckoutState = Checkout;

function language(): string {
  return document.documentElement.lang || 'fi';
}

async function answerOf<T>(response: Response): Promise<T> {
  if (response.ok) return (await response.json()) as T;
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown> & {
    errors?: Record<string, string>;
  };
  throw new ShopApiError(response.status, body.errors?.time ?? body.errors?.date, undefined, body);
}

export async function loadCheckout(): Promise<CheckoutState> {
  return answerOf<CheckoutState>(
    await fetch(`${CHECKOUT_API}?language=${language()}`, { credentials: 'same-origin' }),
  );
}

/** The chosen delivery time; none for a cart of gift cards only (they are mailed). */
export type HoldRequest =
  | { postalCode: string; date: string; time: string; useDeliveryAddressForBilling: boolean }
  | { useDeliveryAddressForBilling: boolean };

/** Takes (or replaces) the cart's hold on a delivery time; 409 when it is gone (`errors`). */
export async function takeHold(request: HoldRequest): Promise<CheckoutState> {
  return answerOf<CheckoutState>(
    await fetch(`${CHECKOUT_API}/hold?language=${language()}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-xsrf-token': xsrfToken() },
      body: JSON.stringify(request),
    }),
  );
}

export async function releaseHold(): Promise<void> {
  const response = await fetch(`${CHECKOUT_API}/hold`, {
    method: 'DELETE',
    credentials: 'same-origin',
    headers: { 'x-xsrf-token': xsrfToken() },
  });
  if (!response.ok && response.status !== 404) await answerOf(response);
}

// --- the customer, kept in session storage (spec §3) ----------------------------------------

/** sessionStorage key of the customer (spec §3 "Stored locally: the customer in session storage"). */
export const CUSTOMER_STORAGE_KEY = 'shop.customer';

export function storedCustomer(): Customer | null {
  try {
    const raw = window.sessionStorage.getItem(CUSTOMER_STORAGE_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Customer;
    return typeof value === 'object' && value && typeof value.loggedIn === 'boolean' ? value : null;
  } catch {
    return null;
  }
}

export function storeCustomer(customer: Customer): void {
  try {
    window.sessionStorage.setItem(CUSTOMER_STORAGE_KEY, JSON.stringify(customer));
  } catch {
    // storage refused: the next page asks the server again
  }
}

/** The session's customer from `GET /api/lk/customer`, kept in session storage. */
export async function refreshCustomer(): Promise<Customer> {
  const customer = await answerOf<Customer>(
    await fetch(CUSTOMER_API, { credentials: 'same-origin' }),
  );
  storeCustomer(customer);
  return customer;
}

/** The address form as `POST /api/lk/customer` takes it. */
export interface AddressFormValues {
  firstName: string;
  lastName: string;
  streetAddress: string;
  postalCode: string;
  city: string;
  phoneCountryCode: string;
  phoneNumber: string;
  isPrivateCustomer: boolean;
}

/** Saves the address; the stored customer is refreshed from the server's answer. */
export async function saveCustomerAddress(values: AddressFormValues): Promise<Customer> {
  await answerOf<unknown>(
    await fetch(CUSTOMER_API, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-xsrf-token': xsrfToken() },
      body: JSON.stringify(values),
    }),
  );
  return refreshCustomer();
}
