import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { arrive, fromAddress, type Visitor } from '../../../tests/helpers/visitor.ts';
import { en } from '../../i18n/en.ts';
import { openText } from '../forms/crypto.server.ts';
import { testFormsConfig } from '../forms/forms.test-support.ts';
import { mailOutbox } from '../forms/tables.ts';
import {
  CAMPAIGN_API,
  NEWS_CATEGORIES_API,
  NEWS_SUBSCRIBE_API,
  NEWSLETTER_API,
} from './schemas.ts';
import {
  CONFIRM_TTL_MS,
  deleteUnconfirmedSubscriptions,
  MAILS_PER_ADDRESS_HOUR,
} from './store.server.ts';
import {
  campaignParticipations,
  campaigns,
  newsReleaseCategories,
  subscriptions,
} from './tables.ts';

const forms = testFormsConfig();
const HOST = { host: 'ammattilaiset.localhost' };
let t: TestApp;
let ipCounter = 1;

/** A visitor from an address of its own, so the per-client budget of one test is its own. */
async function visitor(host = HOST): Promise<Visitor> {
  const v = await arrive(t.app, '/', host);
  return fromAddress(v, `10.1.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`);
}

async function mailsTo(address: string) {
  const rows = await t.app.db.select().from(mailOutbox);
  return rows
    .filter((r) => r.recipients.toLowerCase() === address.toLowerCase())
    .map((r) => ({ subject: r.subject, text: openText(forms.encryptionKey, r.sealedBody) }));
}

async function rowsOf(address: string) {
  return t.app.db
    .select()
    .from(subscriptions)
    .where(sql`lower(${subscriptions.email}) = lower(${address})`);
}

function linkIn(text: string, path: string): URL {
  const match = new RegExp(`https?://\\S+${path.replace(/\//g, '\\/')}\\?\\S+`).exec(text);
  if (!match) throw new Error(`no ${path} link in: ${text}`);
  return new URL(match[0]);
}

/** Opens a mailed link as a browser would: the page, then its form's button. */
async function follow(v: Visitor, link: URL) {
  const page = await v.get(`${link.pathname}${link.search}`);
  const fields = Object.fromEntries(
    [...page.body.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)].map((m) => [
      m[1],
      m[2]?.replace(/&amp;/g, '&'),
    ]),
  );
  const done = await v.post(link.pathname, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields as Record<string, string>).toString(),
  });
  return { page, done };
}

beforeAll(async () => {
  t = await createTestApp({ config: { forms } });
  const now = Date.now();
  await t.app.db.insert(campaigns).values([
    {
      id: 'cincinvino-test',
      siteId: 'ammattilaiset',
      name: 'Open',
      startsAt: new Date(now - 86_400_000),
      endsAt: new Date(now + 86_400_000),
      newsletterList: 'cincinvino',
    },
    {
      id: 'closed-test',
      siteId: 'ammattilaiset',
      name: 'Over',
      startsAt: new Date(now - 3 * 86_400_000),
      endsAt: new Date(now - 86_400_000),
      newsletterList: null,
    },
  ]);
  await t.app.db.insert(newsReleaseCategories).values([
    {
      siteId: 'ammattilaiset',
      lang: 'fi',
      informationType: 'PRM',
      name: 'Lehdistötiedotteet',
      position: 1,
    },
    {
      siteId: 'ammattilaiset',
      lang: 'fi',
      informationType: 'RDV',
      name: 'Taloustiedotteet',
      position: 2,
    },
    {
      siteId: 'ammattilaiset',
      lang: 'fi',
      informationType: 'KMK',
      name: 'Vuosikertomukset',
      position: 0,
    },
  ]);
}, 60_000);
afterAll(async () => t?.close());

let counter = 0;
let address = '';
beforeEach(() => {
  address = `Tilaaja.${++counter}@Example.fi`;
});

describe('newsletter: double opt-in through the outbox', () => {
  it('stores a pending row with its consent, mails a link that confirms once', async () => {
    const v = await visitor();
    const answer = await v.post(NEWSLETTER_API, { payload: { email: ` ${address} ` } });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ success: true });
    const [row] = await rowsOf(address);
    expect(row).toMatchObject({
      siteId: 'ammattilaiset',
      list: 'newsletter',
      email: address,
      status: 'pending',
      source: 'newsletter-modal',
      lang: 'fi',
    });
    expect(row?.consentText).toContain('Voin perua tilauksen');
    expect(row?.consentAt).toBeInstanceOf(Date);

    const mails = await mailsTo(address);
    expect(mails).toHaveLength(1);
    const text = mails[0]?.text ?? '';
    const confirm = linkIn(text, '/tilaus/vahvista');
    expect(confirm.host).toBe('ammattilaiset.localhost');
    linkIn(text, '/tilaus/peruuta');
    // Only the token's hash is kept.
    const token = confirm.searchParams.get('token') ?? '';
    expect(row?.tokenHash).not.toBe(token);
    expect(JSON.stringify(await rowsOf(address))).not.toContain(token);

    // Opening the link changes nothing (a mail scanner's GET); its button confirms.
    const { page, done } = await follow(v, confirm);
    expect(page.statusCode).toBe(200);
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Tilauksesi on vahvistettu');
    const [confirmed] = await rowsOf(address);
    expect(confirmed?.status).toBe('confirmed');
    expect(confirmed?.confirmedAt).toBeInstanceOf(Date);
    expect(confirmed?.tokenHash).toBeNull();

    // Single use.
    const again = await follow(v, confirm);
    expect(again.done.statusCode).toBe(400);
    expect(again.done.body).toContain('Vahvistuslinkki on vanhentunut tai jo käytetty');
  });

  it('a GET of the confirmation link alone confirms nothing', async () => {
    const v = await visitor();
    await v.post(NEWSLETTER_API, { payload: { email: address } });
    const confirm = linkIn((await mailsTo(address))[0]?.text ?? '', '/tilaus/vahvista');
    await v.get(`${confirm.pathname}${confirm.search}`);
    expect((await rowsOf(address))[0]?.status).toBe('pending');
  });

  it('the unsubscribe link of the mail takes the address off the list', async () => {
    const v = await visitor();
    await v.post(NEWSLETTER_API, { payload: { email: address } });
    const text = (await mailsTo(address))[0]?.text ?? '';
    await follow(v, linkIn(text, '/tilaus/vahvista'));
    const { page, done } = await follow(v, linkIn(text, '/tilaus/peruuta'));
    expect(page.statusCode).toBe(200);
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Tilaus on peruttu');
    const [row] = await rowsOf(address);
    expect(row?.status).toBe('unsubscribed');
    expect(row?.unsubscribedAt).toBeInstanceOf(Date);
  });

  it('speaks the page’s language: the consent kept, the mail and the pages it links to', async () => {
    // sibylla has Finnish, Swedish and English versions; the widget sends `?language=en`.
    const v = await visitor({ host: 'sibylla.localhost' });
    const answer = await v.post(`${NEWSLETTER_API}?language=en`, { payload: { email: address } });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    const [row] = await rowsOf(address);
    expect(row?.lang).toBe('en');
    expect(row?.consentText).toBe(en['subscribe.consent.newsletter']);
    const text = (await mailsTo(address))[0]?.text ?? '';
    expect(text).toContain('confirm your subscription');
    const { page, done } = await follow(v, linkIn(text, '/en/tilaus/vahvista'));
    expect(page.body).toContain('<html lang="en"');
    expect(page.body).toContain('action="/en/tilaus/vahvista"');
    expect(done.body).toContain(en['subscribe.page.confirmed']);
    expect((await rowsOf(address))[0]?.status).toBe('confirmed');
    const left = await follow(v, linkIn(text, '/en/tilaus/peruuta'));
    expect(left.done.body).toContain(en['subscribe.page.unsubscribed']);
    // A language the site does not have is the site's default; a prefix it lacks is no page.
    const other = `Toinen.${address}`;
    await v.post(`${NEWSLETTER_API}?language=en`, {
      headers: { host: 'ammattilaiset.localhost' },
      payload: { email: other },
    });
    expect((await rowsOf(other))[0]?.lang).toBe('fi');
    expect((await v.get('/de/tilaus/vahvista')).statusCode).toBe(404);
    expect((await v.get('/en/tilaus/vahvista')).statusCode).toBe(200);
  });

  it('a forged unsubscribe link does nothing', async () => {
    const v = await visitor();
    await v.post(NEWSLETTER_API, { payload: { email: address } });
    const link = linkIn((await mailsTo(address))[0]?.text ?? '', '/tilaus/peruuta');
    const [row] = await rowsOf(address);
    const forged = await v.post('/tilaus/peruuta', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `s=${(row?.id ?? 0) + 1}&sig=${link.searchParams.get('sig')}`,
    });
    expect(forged.statusCode).toBe(400);
    expect((await rowsOf(address))[0]?.status).toBe('pending');
  });

  it('subscribing again is idempotent: one row, the same answer, confirmed stays confirmed', async () => {
    const v = await visitor();
    await v.post(NEWSLETTER_API, { payload: { email: address } });
    await follow(v, linkIn((await mailsTo(address))[0]?.text ?? '', '/tilaus/vahvista'));
    const again = await v.post(NEWSLETTER_API, {
      payload: { email: address.toUpperCase(), source: 'overlay' },
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ success: true });
    const rows = await rowsOf(address);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe('confirmed');
    // A confirmed address gets no second mail; the answer does not tell it was subscribed.
    expect(await mailsTo(address)).toHaveLength(1);
  });

  it('after unsubscribing, subscribing again needs a new confirmation', async () => {
    const v = await visitor();
    await v.post(NEWSLETTER_API, { payload: { email: address } });
    const first = (await mailsTo(address))[0]?.text ?? '';
    await follow(v, linkIn(first, '/tilaus/vahvista'));
    await follow(v, linkIn(first, '/tilaus/peruuta'));
    await v.post(NEWSLETTER_API, { payload: { email: address } });
    const rows = await rowsOf(address);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe('pending');
    const mails = await mailsTo(address);
    expect(mails).toHaveLength(2);
    await follow(v, linkIn(mails[1]?.text ?? '', '/tilaus/vahvista'));
    expect((await rowsOf(address))[0]?.status).toBe('confirmed');
  });

  it('forgets an address never confirmed once its link has expired; confirmed ones stay', async () => {
    const v = await visitor();
    const confirmed = `vahvistettu.${counter}@example.fi`;
    await v.post(NEWSLETTER_API, { payload: { email: address } });
    await v.post(NEWSLETTER_API, { payload: { email: confirmed } });
    await follow(v, linkIn((await mailsTo(confirmed))[0]?.text ?? '', '/tilaus/vahvista'));
    // Within the link's week nothing goes.
    expect(await deleteUnconfirmedSubscriptions(t.app.db, new Date(Date.now() + 60_000))).toBe(0);
    expect(await rowsOf(address)).toHaveLength(1);
    const later = new Date(Date.now() + CONFIRM_TTL_MS + 60_000);
    expect(await deleteUnconfirmedSubscriptions(t.app.db, later)).toBeGreaterThanOrEqual(1);
    expect(await rowsOf(address)).toHaveLength(0);
    expect((await rowsOf(confirmed))[0]?.status).toBe('confirmed');
    // A later subscribe starts afresh.
    await v.post(NEWSLETTER_API, { payload: { email: address } });
    expect((await rowsOf(address))[0]?.status).toBe('pending');
  });

  it(`mails an address at most ${MAILS_PER_ADDRESS_HOUR} times an hour; the links sent keep working`, async () => {
    for (let i = 0; i < MAILS_PER_ADDRESS_HOUR + 3; i++) {
      const v = await visitor();
      const answer = await v.post(NEWSLETTER_API, { payload: { email: address } });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ success: true });
    }
    const mails = await mailsTo(address);
    expect(mails).toHaveLength(MAILS_PER_ADDRESS_HOUR);
    expect(await rowsOf(address)).toHaveLength(1);
    // The last mail's link still confirms: the requests over the bound replaced no token.
    const v = await visitor();
    const last = mails[mails.length - 1]?.text ?? '';
    const { done } = await follow(v, linkIn(last, '/tilaus/vahvista'));
    expect(done.statusCode).toBe(200);
    expect((await rowsOf(address))[0]?.status).toBe('confirmed');
  });

  it('the same address on two sites is two rows, one per site', async () => {
    await (await visitor()).post(NEWSLETTER_API, { payload: { email: address } });
    await (await visitor({ host: 'sibylla.localhost' })).post(NEWSLETTER_API, {
      payload: { email: address },
    });
    const rows = await rowsOf(address);
    expect(rows.map((r) => r.siteId).sort()).toEqual(['ammattilaiset', 'sibylla']);
  });
});

describe('bad input stores nothing', () => {
  const cases: [string, unknown, string][] = [
    ['an empty address', { email: '' }, 'email'],
    ['no address', {}, 'email'],
    ['an invalid address', { email: 'ei-osoite' }, 'email'],
    ['a script', { email: '<script>alert(1)</script>@example.fi' }, 'email'],
    ['a NUL byte', { email: 'a\u0000b@example.fi' }, 'email'],
    ['an address too long', { email: `${'a'.repeat(250)}@example.fi` }, 'email'],
    ['an unknown field', { email: 'x@example.fi', extra: 1 }, '_'],
  ];
  for (const [what, payload, field] of cases) {
    it(`newsletter: ${what} → 400 problem naming the field`, async () => {
      const v = await visitor();
      const answer = await v.post(NEWSLETTER_API, { payload: payload as object });
      expect(answer.statusCode).toBe(400);
      expect(answer.headers['content-type']).toContain('application/problem+json');
      const errors = answer.json().errors as Record<string, string>;
      if (field !== '_') expect(Object.keys(errors)).toContain(field);
    });
  }

  it('the spec text key for an invalid address', async () => {
    const answer = await (await visitor()).post(NEWSLETTER_API, { payload: { email: 'x@' } });
    expect(answer.json().errors).toEqual({ email: 'subscribe.error.email' });
  });

  it('a 20 MB body is refused before it is read (413) and nothing is stored', async () => {
    const before = (await t.app.db.select().from(subscriptions)).length;
    const answer = await (await visitor()).post(NEWSLETTER_API, {
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: `${'a'.repeat(20 * 1024 * 1024)}@example.fi` }),
    });
    expect(answer.statusCode).toBe(413);
    expect(answer.headers['content-type']).toContain('application/problem+json');
    expect((await t.app.db.select().from(subscriptions)).length).toBe(before);
  });

  it('without the anti-forgery header: 403', async () => {
    const v = await visitor();
    const answer = await v.post(NEWSLETTER_API, { payload: { email: address }, xsrf: false });
    expect(answer.statusCode).toBe(403);
    expect(await rowsOf(address)).toHaveLength(0);
  });
});

describe('per-client rate limit', () => {
  it('the 11th post in a minute from one client answers 429 with Retry-After', async () => {
    const v = fromAddress(await arrive(t.app, '/', HOST), '10.9.9.9');
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) {
      const endpoint = i % 2 ? NEWSLETTER_API : NEWS_SUBSCRIBE_API;
      const payload =
        i % 2
          ? { email: `limit${i}@example.fi` }
          : { email: `limit${i}@example.fi`, informationTypes: ['PRM'] };
      codes.push((await v.post(endpoint, { payload })).statusCode);
    }
    expect(codes.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(codes[10]).toBe(429);
    const last = await v.post(CAMPAIGN_API, {
      payload: {
        email: 'limit@example.fi',
        join: 'cincinvino-test',
        isAdult: 'true',
        subscribeToCinCinVinoNewsletter: 'false',
      },
    });
    expect(last.statusCode).toBe(429);
    expect(last.headers['retry-after']).toBeDefined();
    expect(last.headers['content-type']).toContain('application/problem+json');
  });
});

describe('campaign', () => {
  const body = (email: string, extra: Record<string, unknown> = {}) => ({
    email,
    join: 'cincinvino-test',
    isAdult: 'true',
    subscribeToCinCinVinoNewsletter: 'false',
    acceptRules: 'true',
    ...extra,
  });
  const participations = async (email: string) =>
    (await t.app.db.select().from(campaignParticipations)).filter(
      (p) => p.email.toLowerCase() === email.toLowerCase(),
    );

  it('stores one participation; a second is answered the same and stores nothing', async () => {
    const v = await visitor();
    const first = await v.post(CAMPAIGN_API, { payload: body(address) });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ success: true });
    const second = await v.post(CAMPAIGN_API, { payload: body(address.toLowerCase()) });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual({ success: true });
    const rows = await participations(address);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ isAdult: true, acceptedRules: true, wantsNewsletter: false });
    expect(await rowsOf(address)).toHaveLength(0);
  });

  it('the newsletter box puts the address on the campaign list, double opt-in', async () => {
    const v = await visitor();
    await v.post(CAMPAIGN_API, {
      payload: body(address, { subscribeToCinCinVinoNewsletter: 'true' }),
    });
    const [row] = await rowsOf(address);
    expect(row).toMatchObject({
      list: 'cincinvino',
      status: 'pending',
      source: 'campaign:cincinvino-test',
    });
    const [mail] = await mailsTo(address);
    expect(mail?.text).toContain('CinCinVino');
    await follow(v, linkIn(mail?.text ?? '', '/tilaus/vahvista'));
    expect((await rowsOf(address))[0]?.status).toBe('confirmed');
  });

  const refused: [string, Record<string, unknown>, string][] = [
    ['an unknown campaign', { join: 'no-such-campaign' }, 'join'],
    ['a closed campaign', { join: 'closed-test' }, 'join'],
    ['not adult', { isAdult: 'false' }, 'isAdult'],
    ['isAdult missing', { isAdult: undefined }, 'isAdult'],
    ['rules not accepted', { acceptRules: 'false' }, 'acceptRules'],
    ['a boolean that is not text', { isAdult: true }, 'isAdult'],
    ['an invalid address', { email: 'nope' }, 'email'],
  ];
  for (const [what, extra, field] of refused) {
    it(`${what} → 400 naming ${field}, nothing stored`, async () => {
      const v = await visitor();
      const answer = await v.post(CAMPAIGN_API, {
        payload: body(address, { ...extra, subscribeToCinCinVinoNewsletter: 'true' }),
      });
      expect(answer.statusCode).toBe(400);
      expect(answer.headers['content-type']).toContain('application/problem+json');
      expect(Object.keys(answer.json().errors)).toContain(field);
      expect(await participations(address)).toHaveLength(0);
      expect(await rowsOf(address)).toHaveLength(0);
      expect(await mailsTo(address)).toHaveLength(0);
    });
  }

  it('a campaign of another site is unknown here', async () => {
    const v = await visitor({ host: 'sibylla.localhost' });
    const answer = await v.post(CAMPAIGN_API, { payload: body(address) });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().errors).toEqual({ join: 'subscribe.error.campaignUnknown' });
  });

  it('20 parallel posts of one address count once', async () => {
    const posts = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const v = await visitor();
        return v.post(CAMPAIGN_API, {
          payload: body(i % 2 ? address : address.toUpperCase(), {
            subscribeToCinCinVinoNewsletter: 'true',
          }),
        });
      }),
    );
    expect(posts.map((p) => p.statusCode)).toEqual(Array(20).fill(200));
    expect(await participations(address)).toHaveLength(1);
    expect(await rowsOf(address)).toHaveLength(1);
    expect((await mailsTo(address)).length).toBe(MAILS_PER_ADDRESS_HOUR);
  });
});

describe('news releases', () => {
  it('lists the categories of the site and language in order', async () => {
    const answer = await t.app.inject({
      method: 'GET',
      url: `${NEWS_CATEGORIES_API}?language=fi`,
      headers: HOST,
    });
    expect(answer.statusCode).toBe(200);
    // The same for every visitor: shared caches may keep it for five minutes.
    expect(answer.headers['cache-control']).toBe('public, max-age=300');
    expect(answer.json()).toEqual([
      { name: 'Vuosikertomukset', informationType: 'KMK' },
      { name: 'Lehdistötiedotteet', informationType: 'PRM' },
      { name: 'Taloustiedotteet', informationType: 'RDV' },
    ]);
    const sv = await t.app.inject({
      method: 'GET',
      url: `${NEWS_CATEGORIES_API}?language=sv`,
      headers: HOST,
    });
    expect(sv.json()).toEqual([]);
    const bad = await t.app.inject({
      method: 'GET',
      url: `${NEWS_CATEGORIES_API}?language=xx`,
      headers: HOST,
    });
    expect(bad.statusCode).toBe(400);
  });

  it('subscribes to categories and the newsletter with one mail and one link', async () => {
    const v = await visitor();
    const answer = await v.post(NEWS_SUBSCRIBE_API, {
      payload: {
        email: address,
        recaptchaToken: '',
        informationTypes: ['PRM', 'RDV'],
        subscribeToUutiskirje: true,
      },
    });
    expect(answer.statusCode).toBe(200);
    const rows = await rowsOf(address);
    expect(rows.map((r) => r.list).sort()).toEqual([
      'newsletter',
      'newsreleases:PRM',
      'newsreleases:RDV',
    ]);
    expect(rows.every((r) => r.source === 'news-releases' && r.status === 'pending')).toBe(true);
    const mails = await mailsTo(address);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain('Lehdistötiedotteet');
    await follow(v, linkIn(mails[0]?.text ?? '', '/tilaus/vahvista'));
    expect((await rowsOf(address)).every((r) => r.status === 'confirmed')).toBe(true);
  });

  it("nothing chosen → 400 'Valitse vähintään yksi uutiskirje', nothing stored", async () => {
    const v = await visitor();
    const answer = await v.post(NEWS_SUBSCRIBE_API, {
      payload: {
        email: address,
        recaptchaToken: '',
        informationTypes: [],
        subscribeToUutiskirje: false,
      },
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().errors).toEqual({ informationTypes: 'subscribe.error.chooseOne' });
    expect(await rowsOf(address)).toHaveLength(0);
  });

  it('an unknown category → 400 naming informationTypes, nothing stored', async () => {
    const v = await visitor();
    const answer = await v.post(NEWS_SUBSCRIBE_API, {
      payload: { email: address, recaptchaToken: '', informationTypes: ['PRM', 'XXX'] },
    });
    expect(answer.statusCode).toBe(400);
    expect(Object.keys(answer.json().errors)).toEqual(['informationTypes']);
    expect(await rowsOf(address)).toHaveLength(0);
    expect(await mailsTo(address)).toHaveLength(0);
  });

  it('20 parallel subscribes of one address make one row per list', async () => {
    const posts = await Promise.all(
      Array.from({ length: 20 }, async () =>
        (await visitor()).post(NEWS_SUBSCRIBE_API, {
          payload: { email: address, informationTypes: ['KMK'], subscribeToUutiskirje: 'true' },
        }),
      ),
    );
    expect(posts.map((p) => p.statusCode)).toEqual(Array(20).fill(200));
    const rows = await rowsOf(address);
    expect(rows.map((r) => r.list).sort()).toEqual(['newsletter', 'newsreleases:KMK']);
    expect((await mailsTo(address)).length).toBe(MAILS_PER_ADDRESS_HOUR);
  });
});

describe('where the widgets are', () => {
  const islandsOn = async (host: string) => {
    const page = await t.app.inject({ method: 'GET', url: '/', headers: { host } });
    return [...page.body.matchAll(/<k-island data-name="([\w-]+)"/g)].map((m) => m[1]);
  };

  it('the food-service sites have the newsletter modal and the floating overlay', async () => {
    for (const host of ['ammattilaiset.localhost', 'foodservicese.localhost']) {
      const names = await islandsOn(host);
      expect(names).toContain('newsletter-modal');
      expect(names).toContain('floating-overlay');
    }
  });

  it('a brand site has the newsletter modal only; the corporate sites neither', async () => {
    const brand = await islandsOn('sibylla.localhost');
    expect(brand).toContain('newsletter-modal');
    expect(brand).not.toContain('floating-overlay');
    const corporate = await islandsOn('konsernifi.localhost');
    expect(corporate).not.toContain('newsletter-modal');
    expect(corporate).not.toContain('floating-overlay');
  });

  it('the food-service newsletter pushes its analytics event; a brand site’s does not', async () => {
    const page = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { host: 'ammattilaiset.localhost' },
    });
    expect(page.body).toMatch(
      /data-name="newsletter-modal"[^>]*data-props="\{&quot;hash&quot;:&quot;newsletter&quot;,&quot;event&quot;:true\}"/,
    );
  });
});
