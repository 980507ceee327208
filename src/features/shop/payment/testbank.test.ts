import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testConfig } from '../../../../tests/helpers/app.ts';
import { SHOP_HOST as HOST, shopTestApp } from '../../../../tests/helpers/shop.ts';
import { Visitor } from '../../../../tests/helpers/visitor.ts';
import { PaytrailProvider } from './paytrail.server.ts';
import { type PaymentRequest, PaymentReturnRefused } from './provider.ts';
import { paymentProvider } from './providers.server.ts';
import {
  TEST_BANK_PATH,
  TEST_BANK_TICKET_TTL_MS,
  TestBankProvider,
  testBankSecret,
} from './testbank.server.ts';

/**
 * The built-in test bank (decision 024): the default provider; its link opens a page of the shop
 * with the sum and 'Hyväksy maksu' / 'Peruuta'; the form (anti-forgery field, same origin) sends
 * the shopper back with signed checkout- parameters that the provider's verifyReturn takes, as
 * it takes Paytrail's.
 */

const t = shopTestApp();
let counter = 0;

function request(overrides: Partial<PaymentRequest> = {}): PaymentRequest {
  counter += 1;
  return {
    stamp: `order-2001-attempt-${counter}`,
    reference: '20013',
    amountCents: 3 * 695 + 2500,
    currency: 'EUR',
    language: 'fi',
    items: [
      { unitPriceCents: 695, units: 3, vatPercentage: 13.5, productCode: '7780001' },
      { unitPriceCents: 2500, units: 1, vatPercentage: 0, productCode: 'LAHJAKORTTI25' },
    ],
    customer: { email: 'asiakas@example.fi' },
    redirectUrls: {
      success: `http://${HOST}/kassa/maksettu?tilaus=2001`,
      cancel: `http://${HOST}/kassa/peruttu?tilaus=2001`,
    },
    ...overrides,
  };
}

/** The page's form fields as rendered. */
function formFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)) {
    fields[match[1] as string] = (match[2] as string).replaceAll('&amp;', '&');
  }
  return fields;
}

function pathOf(href: string): string {
  const url = new URL(href);
  return `${url.pathname}${url.search}`;
}

function postForm(visitor: Visitor, fields: Record<string, string>, headers = {}) {
  return visitor.post(TEST_BANK_PATH, {
    payload: new URLSearchParams(fields).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'sec-fetch-site': 'same-origin',
      ...headers,
    },
  });
}

async function openBank(href: string) {
  const shopper = new Visitor(t.app, { host: HOST });
  const page = await shopper.get(pathOf(href));
  return { shopper, page, fields: formFields(page.body) };
}

describe('the test bank', () => {
  it('is the default provider', () => {
    expect(paymentProvider(t.app).id).toBe('testbank');
    const paytrail = paymentProvider({
      config: testConfig({
        payment: {
          provider: 'paytrail',
          paytrail: { account: '375917', secret: 'SAIPPUAKAUPPIAS', apiUrl: 'http://127.0.0.1:9' },
          shopOrderEmail: 'tilaukset@kattaus.localhost',
        },
      }),
      db: t.app.db,
    });
    expect(paytrail).toBeInstanceOf(PaytrailProvider);
  });

  it('approve: the page shows the sum, the button returns to the success URL with a signed ok', async () => {
    const provider = paymentProvider(t.app);
    const created = await provider.start(request());
    expect(created.providers).toEqual([]);
    expect(new URL(created.href).host).toBe(HOST);
    expect(new URL(created.href).pathname).toBe(TEST_BANK_PATH);

    const { shopper, page, fields } = await openBank(created.href);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('Testipankki');
    expect(page.body).toContain('45,85 €');
    expect(page.body).toContain('20013');
    expect(page.body).toMatch(/<button type="submit" value="ok"[^>]*name="paatos">Hyväksy maksu</);
    expect(page.body).toMatch(/<button type="submit" value="fail"[^>]*name="paatos">Peruuta</);
    expect(page.body).toContain('<meta name="robots" content="noindex"/>');

    const answer = await postForm(shopper, { ...fields, paatos: 'ok' });
    expect(answer.statusCode).toBe(303);
    const back = new URL(answer.headers.location as string);
    expect(`${back.origin}${back.pathname}`).toBe(`http://${HOST}/kassa/maksettu`);
    expect(back.searchParams.get('tilaus')).toBe('2001');
    const query = Object.fromEntries(back.searchParams);
    expect(provider.parseReturn(query)).toEqual({
      status: 'ok',
      stamp: `order-2001-attempt-${counter}`,
      reference: '20013',
      transactionId: created.transactionId,
      amountCents: 4585,
      method: 'testbank',
    });
    // Replayed: the same answer.
    expect(provider.parseReturn(query)).toEqual(provider.parseReturn({ ...query }));
  });

  it('cancel: the button returns to the cancel URL with a signed fail', async () => {
    const provider = paymentProvider(t.app);
    const created = await provider.start(request());
    const { shopper, fields } = await openBank(created.href);
    const answer = await postForm(shopper, { ...fields, paatos: 'fail' });
    expect(answer.statusCode).toBe(303);
    const back = new URL(answer.headers.location as string);
    expect(back.pathname).toBe('/kassa/peruttu');
    expect(provider.parseReturn(Object.fromEntries(back.searchParams))).toMatchObject({
      status: 'fail',
      amountCents: 4585,
      transactionId: created.transactionId,
    });
  });

  it.each([
    ['checkout-amount', '1'],
    ['checkout-status', 'ok'],
    ['checkout-stamp', 'order-9999'],
  ])('a return with %s tampered is refused', async (name, value) => {
    const provider = paymentProvider(t.app);
    const created = await provider.start(request());
    const { shopper, fields } = await openBank(created.href);
    const answer = await postForm(shopper, { ...fields, paatos: 'fail' });
    const query = Object.fromEntries(new URL(answer.headers.location as string).searchParams);
    query[name] = value;
    expect(() => provider.parseReturn(query)).toThrow(PaymentReturnRefused);
  });

  it("another server's test bank (another secret) does not take this one's returns", async () => {
    const provider = paymentProvider(t.app);
    const created = await provider.start(request());
    const { shopper, fields } = await openBank(created.href);
    const answer = await postForm(shopper, { ...fields, paatos: 'ok' });
    const query = Object.fromEntries(new URL(answer.headers.location as string).searchParams);
    expect(() => new TestBankProvider('another-secret', t.app.db).parseReturn(query)).toThrow(
      PaymentReturnRefused,
    );
  });

  it('the same stamp opens the same transaction', async () => {
    const provider = paymentProvider(t.app);
    const once = request();
    expect((await provider.start(once)).transactionId).toBe(
      (await provider.start(once)).transactionId,
    );
    expect((await provider.start(request())).transactionId).not.toBe(
      (await provider.start(once)).transactionId,
    );
  });

  it('refuses an amount that is not the items’ sum before making a link', async () => {
    await expect(
      paymentProvider(t.app).start(request({ amountCents: 4584 })),
    ).rejects.toMatchObject({ status: 400, errors: { amountCents: 'payment.amountMismatch' } });
  });

  it('refuses a form without its anti-forgery field, a forged one or from another site', async () => {
    const created = await paymentProvider(t.app).start(request());
    const { shopper, fields } = await openBank(created.href);
    const { xsrf: _, ...withoutXsrf } = fields;
    for (const answer of [
      await postForm(shopper, { ...withoutXsrf, paatos: 'ok' }),
      await postForm(shopper, { ...fields, xsrf: 'forged', paatos: 'ok' }),
      await postForm(shopper, { ...fields, paatos: 'ok' }, { 'sec-fetch-site': 'cross-site' }),
      // Another visitor's form field does not fit this visitor's session.
      await postForm(new Visitor(t.app, { host: HOST }), { ...fields, paatos: 'ok' }),
    ]) {
      expect(answer.statusCode).toBe(403);
      expect(answer.headers.location).toBeUndefined();
      expect(answer.body).toContain('Maksua ei voitu käsitellä.');
    }
    expect((await postForm(shopper, { ...fields, paatos: 'maybe' })).statusCode).toBe(400);
  });

  it('a changed, foreign or expired link shows the expired text with 404', async () => {
    const provider = paymentProvider(t.app);
    const created = await provider.start(request());
    const sealed = new URL(created.href).searchParams.get('maksu') ?? '';
    const [payload = '', mac = ''] = sealed.split('.');
    const ticket = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const cheaper = Buffer.from(JSON.stringify({ ...ticket, amountCents: 1 })).toString(
      'base64url',
    );
    const foreign = await new TestBankProvider('another-secret', t.app.db).start(request());
    const now = Date.now();
    const expired = await new TestBankProvider(
      // The same key as the app's: only the clock differs.
      testBankSecret(t.app.config.sessionSecret),
      t.app.db,
      () => now - TEST_BANK_TICKET_TTL_MS - 1000,
    ).start(request());
    for (const href of [
      `${TEST_BANK_PATH}?maksu=${cheaper}.${mac}`,
      `${TEST_BANK_PATH}?maksu=${payload}`,
      `${TEST_BANK_PATH}?maksu=`,
      TEST_BANK_PATH,
      pathOf(foreign.href),
      pathOf(expired.href),
    ]) {
      const { page, shopper, fields } = await openBank(`http://${HOST}${href}`);
      expect(page.statusCode, href).toBe(404);
      expect(page.body).toContain('Maksulinkki on vanhentunut tai virheellinen.');
      expect(page.body).not.toContain('Hyväksy maksu');
      expect(fields.maksu).toBeUndefined();
      // Nor does the form take it.
      const xsrf = formFields((await shopper.get(pathOf(created.href))).body).xsrf ?? '';
      const posted = await postForm(shopper, {
        maksu: new URL(`http://${HOST}${href}`).searchParams.get('maksu') ?? '',
        xsrf,
        paatos: 'ok',
      });
      expect(posted.statusCode).toBe(404);
    }
  });

  it('is only on the shop', async () => {
    const created = await paymentProvider(t.app).start(request());
    const brand = new Visitor(t.app, { host: 'jyvabroiler.localhost' });
    expect((await brand.get(pathOf(created.href))).statusCode).toBe(404);
  });
});

describe('with Paytrail configured', () => {
  let paytrailApp: TestApp;

  beforeAll(async () => {
    paytrailApp = await createTestApp({
      config: {
        payment: {
          provider: 'paytrail',
          paytrail: { account: '375917', secret: 'SAIPPUAKAUPPIAS', apiUrl: 'http://127.0.0.1:9' },
          shopOrderEmail: 'tilaukset@kattaus.localhost',
        },
      },
    });
  }, 120_000);
  afterAll(async () => {
    await paytrailApp?.close();
  });

  it('the test bank page does not exist', async () => {
    const bank = new TestBankProvider('x', paytrailApp.app.db);
    const created = await bank.start(request());
    const shopper = new Visitor(paytrailApp.app, { host: HOST });
    expect((await shopper.get(pathOf(created.href))).statusCode).toBe(404);
    expect(
      (
        await shopper.post(TEST_BANK_PATH, {
          payload: 'maksu=x&xsrf=y&paatos=ok',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).statusCode,
    ).toBe(404);
  });
});
