import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { serverT } from '../../../i18n/catalogues.ts';
import { IslandRoot } from '../../../render/island-root.tsx';
import { pushCheckoutEvent } from '../analytics.ts';
import { cartOf } from '../cart.test-support.ts';
import { CartPage, toDetailsHref } from '../cart-page.tsx';
import type { Customer } from '../customer/schemas.ts';
import {
  addressErrors,
  addressModalWanted,
  canSaveAddress,
  initialAddressValues,
} from './address-modal.tsx';
import { checkoutUrl } from './checkout-form.ts';
import {
  CheckoutPage,
  type CheckoutPageProps,
  clockOf,
  deliveryStepErrors,
  paysNothing,
  stepOfHash,
  timesOf,
} from './checkout-page.tsx';

/**
 * The checkout's components as the server renders them (the page without script) and their
 * rules: the cart's step to the order details and login view (spec §2), the address modal's
 * save rule and phone check (spec §4, §5), the checkout's steps and its next-step rules.
 */

const fi = serverT('fi');

const customer = (street = 'Hämeenkatu 5', loggedIn = true): Customer => ({
  loggedIn,
  loading: false,
  email: 'matti@example.fi',
  deliveryAddress: {
    firstName: 'Matti',
    lastName: 'Virtanen',
    streetAddress: street,
    postalCode: '33100',
    city: 'Tampere',
  },
  billingAddress: { firstName: '', lastName: '', streetAddress: '', postalCode: '', city: '' },
  phoneCountryCode: '+358',
  phoneNumber: '50123123',
  isPrivateCustomer: true,
  additionalInformation: '',
});

const cart = (totalCents?: number) => cartOf(totalCents);

const render = (node: React.ReactNode) =>
  renderToString(
    <IslandRoot lang="fi" t={fi}>
      {node}
    </IslandRoot>,
  );

describe("the cart's step to the order details (spec §2)", () => {
  it('goes to the checkout with a logged-in postal code, else to the login view', () => {
    expect(toDetailsHref({ loggedIn: true, postalCode: '33100' })).toBe(
      '/kassa?postinumero=33100#toimitus',
    );
    expect(toDetailsHref({ loggedIn: true, postalCode: '' })).toBe('#kirjaudu');
    expect(toDetailsHref({ loggedIn: false, postalCode: '33100' })).toBe('#kirjaudu');
  });

  it('shows a visitor the login and register links with paluu, and the postal-code form', () => {
    const html = render(<CartPage cart={cart()} shopper={{ loggedIn: false, postalCode: '' }} />);
    expect(html).toContain('href="#kirjaudu"');
    expect(html).toContain('id="kirjaudu"');
    expect(html).toContain(`href="/kirjaudu?paluu=${encodeURIComponent('/ostoskori#kirjaudu')}"`);
    expect(html).toContain('href="/rekisteroidy?paluu=');
    expect(html).toContain('action="/kassa"');
  });

  it('shows a logged-in customer with a postal code no login links and the way on', () => {
    const html = render(
      <CartPage cart={cart()} shopper={{ loggedIn: true, postalCode: '33100' }} />,
    );
    expect(html).toContain('href="/kassa?postinumero=33100#toimitus"');
    expect(html).not.toContain('href="/kirjaudu');
    expect(html).not.toContain('action="/kassa"');
    expect(html).toContain(fi('checkout.login.continue', { postalCode: '33100' }));
  });

  it('asks a logged-in customer without a postal code for one', () => {
    const html = render(<CartPage cart={cart()} shopper={{ loggedIn: true, postalCode: '' }} />);
    expect(html).not.toContain('href="/kirjaudu');
    expect(html).toContain('action="/kassa"');
  });
});

describe('one postal-code check on the cart page', () => {
  const checks = (html: string) =>
    html.split(`>${fi('shop.delivery.postalCode')}</label>`).length - 1;

  it("the login view's check stands in for the cart's own when the view asks for a postal code", () => {
    for (const shopper of [
      { loggedIn: false, postalCode: '' },
      { loggedIn: false, postalCode: '33100' },
      { loggedIn: true, postalCode: '' },
    ]) {
      const html = render(<CartPage cart={cart()} shopper={shopper} />);
      expect(checks(html), JSON.stringify(shopper)).toBe(1);
      expect(html).toContain('action="/kassa"');
      expect(html).not.toContain(fi('shop.delivery.heading'));
    }
  });

  it("keeps the cart's own check when the login view has none", () => {
    const html = render(
      <CartPage cart={cart()} shopper={{ loggedIn: true, postalCode: '33100' }} />,
    );
    expect(checks(html)).toBe(1);
    expect(html).toContain(fi('shop.delivery.heading'));
    // An empty cart offers only the way back to the products: no check at all.
    const empty = render(
      <CartPage
        cart={{ ...cart(), lineItems: [] }}
        shopper={{ loggedIn: false, postalCode: '' }}
      />,
    );
    expect(checks(empty)).toBe(0);
    expect(empty).toContain(fi('shop.cart.empty'));
    expect(empty).toContain('href="/tuotteet"');
  });
});

describe('the address modal (spec §4, §5)', () => {
  const filled = { ...initialAddressValues(customer()), isPrivateCustomer: true };

  it('saves only with every field filled and the private-customer box ticked', () => {
    expect(canSaveAddress(filled)).toBe(true);
    expect(canSaveAddress({ ...filled, isPrivateCustomer: false })).toBe(false);
    for (const field of [
      'firstName',
      'lastName',
      'streetAddress',
      'postalCode',
      'city',
      'phoneNumber',
    ] as const) {
      expect(canSaveAddress({ ...filled, [field]: '  ' }), field).toBe(false);
    }
  });

  it('starts with +358 and checks the phone in Finnish format', () => {
    expect(initialAddressValues(null).phoneCountryCode).toBe('+358');
    expect(addressErrors({ ...filled, phoneNumber: '050 123 123' })).toEqual({});
    expect(addressErrors({ ...filled, phoneNumber: '50123123' })).toEqual({});
    expect(addressErrors({ ...filled, phoneNumber: 'abc' })).toEqual({
      phoneNumber: 'account.error.phone',
    });
    expect(fi('account.error.phone')).toBe('Väärän muotoinen puhelinnumero');
    expect(fi('checkout.address.failed')).toBe('Jotain meni vikaan');
  });

  it('opens for a logged-in customer without a street once the cart is loaded', () => {
    expect(addressModalWanted(true, customer(''))).toBe(true);
    expect(addressModalWanted(false, customer(''))).toBe(false);
    expect(addressModalWanted(true, customer())).toBe(false);
    expect(addressModalWanted(true, customer('', false))).toBe(false);
    expect(addressModalWanted(true, null)).toBe(false);
  });
});

describe('the checkout page (decision 029)', () => {
  const delivery = {
    isAvailable: true,
    deliveryRequired: true,
    message: null,
    reason: null,
    dates: [
      {
        value: '2026-12-01',
        label: 'ti 1.12.2026',
        times: [{ value: '08:00-12:00', label: 'klo 8–12' }],
      },
      {
        value: '2026-12-02',
        label: 'ke 2.12.2026',
        times: [
          { value: '08:00-12:00', label: 'klo 8–12' },
          { value: '16:00-20:00', label: 'klo 16–20' },
        ],
      },
    ],
  };
  const hold = {
    checkoutId: '0b8f2f8e-4b0c-4a53-9b1e-2f1d5e8d9a10',
    postalCode: '33100',
    date: '2026-12-02',
    time: '16:00-20:00',
    label: 'ke 2.12.2026 klo 16–20',
    expiresAt: '2026-12-01T10:00:00Z',
    useDeliveryAddressForBilling: true,
  };
  const props = (over: Partial<CheckoutPageProps> = {}): CheckoutPageProps => ({
    cart: cart(),
    hold: null,
    postalCode: '33100',
    delivery,
    customer: customer(),
    paymentMethodCode: 'testbank',
    form: { token: 'tok', notice: null },
    ...over,
  });

  it('renders both steps as plain forms before script: one select of every date and time', () => {
    const html = render(<CheckoutPage {...props()} />);
    expect(html).toContain('id="toimitus"');
    expect(html).toContain('id="maksu"');
    expect(html).toContain('name="slot"');
    expect(html).toContain('value="2026-12-02 16:00-20:00"');
    expect(html).toContain('<optgroup label="ke 2.12.2026"');
    expect(html).toContain('id="purchase-form"');
    expect(html).toContain('name="PaymentMethodCode" value="testbank"');
    expect(html).toContain('name="_xsrf" value="tok"');
    expect(html).toContain('name="action" value="hold"');
    expect(html).toContain('name="action" value="purchase"');
    // No hold: the payment button is off and the payment step is not a link.
    expect(html).toMatch(/id="checkout-pay"[^>]*disabled/);
    expect(html).not.toContain('href="#maksu"');
  });

  it('with a hold, the purchase form carries its checkout id and the step shows its time', () => {
    const html = render(<CheckoutPage {...props({ hold })} />);
    expect(html).toContain(`name="checkoutId" value="${hold.checkoutId}"`);
    expect(html).toContain('ke 2.12.2026 klo 16–20');
    expect(html).toContain('href="#maksu"');
    expect(html).toContain('selected=""');
  });

  it('a refused post shows the summary, and keeps the choice', () => {
    const html = render(
      <CheckoutPage
        {...props({
          form: {
            token: 'tok',
            notice: {
              step: 'toimitus',
              errors: { time: 'checkout.error.slotFull' },
              typed: { date: '2026-12-02', time: '08:00-12:00' },
            },
          },
        })}
      />,
    );
    expect(html).toContain('id="error-summary"');
    expect(html).toContain(fi('checkout.error.slotFull'));
    // Before script the summary leads to the one select of dates and times.
    expect(html).toContain('href="#checkout-slot"');
    expect(html).toContain('id="checkout-slot"');
    expect(html).toMatch(/<option value="2026-12-02 08:00-12:00" selected="">/);
  });

  it('offers the confirm button for a cart of 0,00 €', () => {
    expect(paysNothing(cart(0))).toBe(true);
    expect(paysNothing(cart(1))).toBe(false);
    const html = render(<CheckoutPage {...props({ cart: cart(0), hold })} />);
    expect(html).toContain(fi('checkout.confirm'));
    expect(html).not.toContain(fi('checkout.toPayment'));
  });

  it('knows its steps and what the next-step button still needs', () => {
    expect(clockOf('2026-12-01T12:35:00Z')).toBe('14.35');
    expect(stepOfHash('#maksu')).toBe('maksu');
    expect(stepOfHash('#toimitus')).toBe('toimitus');
    expect(stepOfHash('')).toBe('toimitus');
    expect(timesOf(delivery, '2026-12-02')).toHaveLength(2);
    expect(timesOf(delivery, '2026-12-09')).toEqual([]);
    const c = customer();
    expect(deliveryStepErrors({ customer: c, date: '', time: '', hold: null })).toEqual({
      date: 'checkout.error.chooseDate',
    });
    expect(deliveryStepErrors({ customer: c, date: '2026-12-02', time: '', hold: null })).toEqual({
      time: 'checkout.error.chooseTime',
    });
    expect(deliveryStepErrors({ customer: c, date: hold.date, time: hold.time, hold })).toEqual({});
    expect(
      deliveryStepErrors({ customer: customer(''), date: hold.date, time: hold.time, hold }),
    ).toEqual({ address: 'checkout.error.address' });
    expect(checkoutUrl('00100', 'maksu')).toBe('/kassa?postinumero=00100#maksu');
  });
});

describe('the checkout analytics (issue 13)', () => {
  it('pushes begin_checkout, add_shipping_info and add_payment_info with the cart and their fields', () => {
    const holder = globalThis as unknown as { window?: { dataLayer?: unknown[] } };
    const before = holder.window;
    holder.window = { dataLayer: [] };
    try {
      const c = { ...cart(2490), couponCodes: ['TERVETULOA10'] };
      pushCheckoutEvent('begin_checkout', c);
      pushCheckoutEvent('add_shipping_info', c, { shipping_tier: 'ke 2.12.2026 klo 8–12' });
      pushCheckoutEvent('add_payment_info', c, { payment_type: 'online bank' });
      const layer = holder.window.dataLayer as Record<string, unknown>[];
      const pushed = layer.filter((entry) => entry.event);
      expect(pushed.map((entry) => entry.event)).toEqual([
        'begin_checkout',
        'add_shipping_info',
        'add_payment_info',
      ]);
      // Each event clears the last ecommerce object first.
      expect(layer.filter((entry) => entry.ecommerce === null)).toHaveLength(3);
      const [begin, shipping, payment] = pushed.map(
        (entry) => entry.ecommerce as Record<string, unknown>,
      );
      expect(begin).toMatchObject({ currency: 'EUR', value: 24.9, coupon: 'TERVETULOA10' });
      expect(begin?.items).toEqual([
        expect.objectContaining({ item_id: 'SISA400', price: 24.9, quantity: 1 }),
      ]);
      expect(shipping).toMatchObject({ shipping_tier: 'ke 2.12.2026 klo 8–12' });
      expect(payment).toMatchObject({ payment_type: 'online bank' });
    } finally {
      holder.window = before;
    }
  });
});
