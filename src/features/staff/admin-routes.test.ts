import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCampaign,
  createImage,
  createNews,
  createNewsCategory,
  createPage,
  createParticipation,
  createProduct,
  createRecipe,
  createSubscription,
} from '../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { softAuthenticator } from '../../../tests/helpers/soft-authenticator.ts';
import {
  adminVisitor,
  auditCount,
  type Enrolled,
  enrolledStaff,
  json,
  lastAudit,
} from '../../../tests/helpers/staff.ts';
import type { Visitor } from '../../../tests/helpers/visitor.ts';
import { ADMIN_NEWS_API, NEWS_RELEASES_API } from '../content/admin/schemas.ts';
import { jobs, mapRegions, products, timelineYears } from '../content/index.server.ts';
import { MEDIA_ADMIN_API } from '../content/media/schemas.ts';
import {
  JOBS_ADMIN_API,
  MAP_REGIONS_ADMIN_API,
  PRODUCTS_ADMIN_API,
  SCHOOL_MATERIALS_ADMIN_API,
  TIMELINE_ADMIN_API,
} from '../content/publishing/kind-schemas.ts';
import {
  CONTENT_IMAGES_API,
  PAGES_ADMIN_API,
  RECIPES_ADMIN_API,
} from '../content/publishing/schemas.ts';
import { FORM_SETTINGS_API } from '../form-settings/schemas.ts';
import { png, sendComplaint } from '../forms/forms.test-support.ts';
import { schoolMaterials } from '../forms/index.server.ts';
import { INBOX_API } from '../inbox/schemas.ts';
import { PERSON_STORES, PERSONAL_DATA_API } from '../personal-data/schemas.ts';
import { SYNONYMS_API } from '../search/synonym-schemas.ts';
import { searchSynonyms } from '../search/tables.ts';
import { CATALOGUE_API } from '../shop/admin/catalogue-schemas.ts';
import { CUSTOMERS_API } from '../shop/admin/customers-schemas.ts';
import { DELIVERY_API } from '../shop/admin/delivery-schemas.ts';
import { COUPONS_API, GIFT_CARDS_API } from '../shop/admin/promotions-schemas.ts';
import { REVIEWS_API } from '../shop/admin/reviews-schemas.ts';
import { ORDERS_API } from '../shop/admin/schemas.ts';
import { createCustomer, createOrder } from '../shop/orders/order-fixtures.test-support.ts';
import { paidAtTestBank } from '../shop/orders/refunds.test-support.ts';
import {
  deliveryAreas,
  deliveryCalendarSlots,
  deliveryClosedDates,
  productReviews,
} from '../shop/tables.ts';
import { CAMPAIGNS_API, SUBSCRIBERS_API } from '../subscriptions/admin/schemas.ts';
import type { StaffRouteAccess } from './guard.server.ts';
import { PERMISSIONS, type Permission } from './permissions.ts';
import { staffRoles } from './tables.ts';

/**
 * Every admin route, as Fastify's route table has it (decision 131): without a session 401;
 * signed in without the permission 403; with the permission for another site and language
 * either 403 or only that grant's rows. A route that declares nothing fails here. Every write
 * route, done once by an administrator, leaves exactly one audit row (decision 132).
 */
let t: TestApp;
let admin: Enrolled;
let scoped: Enrolled;
/** Per permission, a staff member holding every permission but that one, everywhere. */
const allBut = new Map<Permission, Enrolled>();
let someStaffId = '';
let someSubmissionId = '';
/** A shop product's code, for the catalogue routes. */
const SAMPLE_PRODUCT = 'NAYTE-1';
/** A shop order (lihakauppa, outside the scoped grant), for the order routes. */
let someOrderId = '';
/** A subscription, a campaign and a news release of sibylla (outside the scoped grant). */
let someSubscriptionId = '';
let someCampaignId = '';
let someNewsId = '';
/** A recipe outside the scoped grant (sibylla in Swedish), for the recipe routes. */
let someRecipeId = 0;
/** A page outside the scoped grant (sibylla in Swedish), for the page routes. */
let somePageId = 0;
/** An image a Swedish news release of sibylla shows. */
let someImageId = 0;
/** Rows outside the scoped grant (sibylla in Swedish) of the kinds of decision 171, by API. */
const someKindIds: Record<string, number> = {};

/** Sign-in steps, enrolment and reset: no session is needed, they check what they need. */
const PUBLIC = [
  'POST /api/admin/auth/login',
  'POST /api/admin/auth/totp',
  'POST /api/admin/auth/recovery',
  'POST /api/admin/auth/logout',
  'POST /api/admin/auth/password-reset',
  'POST /api/admin/auth/password-reset/confirm',
  'POST /api/admin/enrolment',
  'POST /api/admin/enrolment/complete',
  'GET /api/admin/auth/methods',
  'GET /api/admin/auth/passkey/options',
  'POST /api/admin/auth/passkey',
  'GET /api/admin/auth/oidc',
  'GET /api/admin/auth/oidc/callback',
];

/** The admin routes of Fastify's route table (`printRoutes`), as `METHOD /path`. */
function routeTable(app: FastifyInstance): string[] {
  const found = new Set<string>();
  const text = app.printRoutes({ commonPrefix: false });
  let path = '';
  const stack: { depth: number; segment: string }[] = [];
  for (const line of text.split('\n')) {
    const match =
      /^([│ ]*)[└├]── (\S+) \(([^)]+)\)/.exec(line) ?? /^([│ ]*)[└├]── (\S+)/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length;
    while (stack.length && (stack[stack.length - 1]?.depth ?? 0) >= depth) stack.pop();
    stack.push({ depth, segment: match[2] ?? '' });
    path = stack.map((s) => s.segment).join('');
    for (const method of (match[3] ?? '').split(', ').filter(Boolean)) {
      if (method !== 'HEAD' && path.startsWith('/api/admin')) found.add(`${method} ${path}`);
    }
  }
  return [...found].sort();
}

/** What the route walk finds wrong with the routes' declarations. */
function undeclared(app: FastifyInstance): string[] {
  return app.adminRoutes
    .filter((r) => r.staff === undefined)
    .map((r) => `${r.method} ${r.url} declares no permission (config.staff)`);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await enrolledStaff(t.app, [{ role: 'admin', sites: null, langs: null }]);
  scoped = await enrolledStaff(t.app, [{ role: 'admin', sites: ['jyvabroiler'], langs: ['fi'] }]);
  const needed = new Set(
    t.app.adminRoutes.flatMap((r) =>
      r.staff && 'permission' in r.staff ? [r.staff.permission] : [],
    ),
  );
  for (const permission of needed) {
    const key = `all-but-${permission.replace('.', '-')}`;
    await t.app.db.insert(staffRoles).values({
      key,
      name: { fi: key, sv: key, en: key },
      permissions: PERMISSIONS.filter((p) => p !== permission),
    });
    allBut.set(permission, await enrolledStaff(t.app, [{ role: key, sites: null, langs: null }]));
  }
  someStaffId = scoped.id;
  // A form submission outside the scoped grant (delise is Swedish), for the inbox's routes.
  someSubmissionId = await sendComplaint(t.app, 'delise.localhost');
  someOrderId = (await createOrder(t.app.db, { customerId: null })).id;
  await createProduct(t.app.db, {
    siteId: 'lihakauppa',
    kind: 'shop-product',
    path: '/tuotteet/nayte',
    code: SAMPLE_PRODUCT,
    priceCents: 100,
    stock: 10,
  });
  someSubscriptionId = String(
    (await createSubscription(t.app.db, { siteId: 'sibylla', lang: 'sv', list: 'newsletter' })).id,
  );
  someCampaignId = (await createCampaign(t.app.db, { siteId: 'sibylla' })).id;
  await createParticipation(t.app.db, { campaignId: someCampaignId, lang: 'sv' });
  await createNewsCategory(t.app.db, {
    siteId: 'sibylla',
    lang: 'sv',
    informationType: 'PRM',
    name: 'Pressmeddelanden',
  });
  someNewsId = String(
    (await createNews(t.app.db, { siteId: 'sibylla', lang: 'sv', path: '/nyheter/prov' })).id,
  );
  someRecipeId = (
    await createRecipe(t.app.db, { siteId: 'sibylla', lang: 'sv', path: '/recept/korvgryta' })
  ).id;
  someImageId = (await createImage(t.app.db)).id;
  await createNews(t.app.db, {
    siteId: 'sibylla',
    lang: 'sv',
    path: '/nyheter/bild',
    imageId: someImageId,
  });
  await createPage(t.app.db, { siteId: 'jyvabroiler', lang: 'fi', path: '/kana', title: 'Kana' });
  somePageId = (
    await createPage(t.app.db, { siteId: 'sibylla', lang: 'sv', path: '/korv', title: 'Korv' })
  ).id;
  await createPage(t.app.db, {
    siteId: 'jyvabroiler',
    lang: 'en',
    path: '/chicken',
    title: 'Chicken',
  });
  for (const [api, id] of Object.entries(await kindRows(1, 'sv'))) someKindIds[api] = id;
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const idFor = (url: string) =>
  url.startsWith(INBOX_API)
    ? someSubmissionId
    : url.startsWith(ORDERS_API)
      ? someOrderId
      : url.startsWith(SUBSCRIBERS_API)
        ? someSubscriptionId
        : url.startsWith(CAMPAIGNS_API)
          ? someCampaignId
          : url.startsWith(ADMIN_NEWS_API)
            ? someNewsId
            : url.startsWith(RECIPES_ADMIN_API)
              ? String(someRecipeId)
              : url.startsWith(PAGES_ADMIN_API)
                ? String(somePageId)
                : url.startsWith(MEDIA_ADMIN_API)
                  ? String(someImageId)
                  : (Object.entries(someKindIds)
                      .find(([api]) => url.startsWith(`${api}/`))?.[1]
                      ?.toString() ?? someStaffId);

const urlOf = (route: { url: string }) =>
  route.url
    .replace(':id', idFor(route.url))
    .replace(':position', '0')
    .replace(':key', 'editor')
    .replace(':version', '1')
    .replace(':scheduleId', '1')
    .replace(':site', 'sibylla')
    .replace(':form', 'question');

/** Bodies for writes that name their rows in the body (a bulk action's items), not the URL. */
const BODIES: Record<string, () => unknown> = {
  [`POST ${RECIPES_ADMIN_API}/bulk`]: () => ({
    action: 'unpublish',
    items: [{ id: someRecipeId, version: 1 }],
  }),
  [`POST ${PAGES_ADMIN_API}/bulk`]: () => ({
    action: 'unpublish',
    items: [{ id: somePageId, version: 1 }],
  }),
  [`POST ${NEWS_RELEASES_API}/bulk`]: () => ({
    action: 'unpublish',
    items: [{ id: Number(someNewsId), version: 1 }],
  }),
};

function call(v: Visitor, route: { method: string; url: string }, query = '') {
  const body = BODIES[`${route.method} ${route.url}`]?.() ?? {};
  return v.request(route.method as 'GET', `${urlOf(route)}${query}`, json(body));
}

const guarded = () =>
  t.app.adminRoutes.filter((r) => !(r.staff && 'access' in r.staff && r.staff.access === 'public'));

describe('the admin routes', () => {
  it('are all in the guard’s list, from Fastify’s own route table', () => {
    const table = routeTable(t.app);
    expect(table.length).toBeGreaterThan(15);
    expect(table).toEqual(
      [...new Set(t.app.adminRoutes.map((r) => `${r.method} ${r.url}`))].sort(),
    );
  });

  it('each declare what they need', () => {
    expect(undeclared(t.app)).toEqual([]);
    const publicOnes = t.app.adminRoutes
      .filter((r) => r.staff && 'access' in r.staff && r.staff.access === 'public')
      .map((r) => `${r.method} ${r.url}`);
    expect(publicOnes.sort()).toEqual([...PUBLIC].sort());
  });

  it('are in the OpenAPI document under their own tag, writes with the anti-forgery header', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { tags?: string[]; security?: unknown[] }>>;
    };
    const wrong: string[] = [];
    for (const route of t.app.adminRoutes) {
      const path = route.url.replace(/:(\w+)/g, '{$1}');
      const op = doc.paths[path]?.[route.method.toLowerCase()];
      if (!op?.tags?.includes('admin'))
        wrong.push(`${route.method} ${route.url}: not tagged admin`);
      if (route.method !== 'GET' && !op?.security?.length)
        wrong.push(`${route.method} ${route.url}: no anti-forgery header documented`);
    }
    expect(wrong).toEqual([]);
  });

  it('refuse every write without the anti-forgery header, even signed in', async () => {
    const wrong: string[] = [];
    for (const route of t.app.adminRoutes.filter((r) => r.method !== 'GET')) {
      const res = await admin.visitor.request(route.method as 'POST', urlOf(route), {
        ...json({}),
        xsrf: false,
      });
      if (res.statusCode !== 403 || res.json().type !== '/problems/xsrf')
        wrong.push(`${route.method} ${route.url}: ${res.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answer 401 problem+json without a session', async () => {
    // From a client address of its own: the other tests' calls (every write gives the password
    // again first) spend the per-address limits of the default one.
    const v = await adminVisitor(t.app, '10.31.0.1');
    const wrong: string[] = [];
    for (const route of guarded()) {
      const res = await call(v, route);
      if (res.statusCode !== 401 || !String(res.headers['content-type']).includes('problem+json'))
        wrong.push(`${route.method} ${route.url}: ${res.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answer 403 to a staff member without the permission', async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const route of guarded()) {
      const staff = route.staff as StaffRouteAccess;
      if (!('permission' in staff)) continue;
      const person = allBut.get(staff.permission);
      if (!person) throw new Error(`nobody lacks ${staff.permission}`);
      const res = await call(person.visitor, route);
      checked += 1;
      if (res.statusCode !== 403 || res.json().type !== '/problems/forbidden')
        wrong.push(`${route.method} ${route.url}: ${res.statusCode} ${res.body}`);
    }
    expect(checked).toBeGreaterThan(10);
    expect(wrong).toEqual([]);
  });

  it('answer 403 or only the grant’s rows for a site and language outside the grant', async () => {
    const wrong: string[] = [];
    const outside: unknown[] = [];
    let filtered = 0;
    for (const route of guarded()) {
      const staff = route.staff as StaffRouteAccess;
      if (!('permission' in staff)) continue;
      const body = CROSS_SITE_WRITES[`${route.method} ${route.url}`];
      if (body) {
        // A request about no one site (a person's rows on every site): done within the grant.
        const res = await scoped.visitor.request(route.method as 'POST', urlOf(route), json(body));
        if (res.statusCode !== 200) wrong.push(`${route.method} ${route.url}: ${res.statusCode}`);
        else if (String(res.headers['content-type']).includes('json'))
          collectOutside(res.json(), outside);
        continue;
      }
      const res = await call(scoped.visitor, route, '?site=sibylla&lang=sv');
      if (res.statusCode === 403) continue;
      if (route.method !== 'GET' || res.statusCode !== 200) {
        wrong.push(`${route.method} ${route.url}: ${res.statusCode}`);
        continue;
      }
      filtered += 1;
      // Without the narrowing the grant's own rows show, and still nothing else.
      const all = await call(scoped.visitor, route);
      for (const answer of [res, all]) {
        if (String(answer.headers['content-type']).startsWith('text/csv')) {
          // The export's rows name their site in a cell of their own.
          if (/;(?!jyvabroiler;)[a-z]+;(fi|sv|en);/.test(answer.body)) outside.push(answer.body);
        } else collectOutside(answer.json(), outside);
      }
    }
    expect(wrong).toEqual([]);
    expect(outside).toEqual([]);
    expect(filtered).toBeGreaterThan(0);
  });

  it('show the grant’s own rows to the limited staff member (the filter is not empty)', async () => {
    const res = await scoped.visitor.get('/api/admin/content/pages');
    expect(res.statusCode, res.body).toBe(200);
    const titles = res.json().pages.map((p: { title: string }) => p.title);
    expect(titles).toContain('Kana');
    expect(titles).not.toContain('Korv');
    expect(titles).not.toContain('Chicken');
    const everything = await admin.visitor.get('/api/admin/content/pages?lang=sv');
    expect(everything.json().pages.map((p: { title: string }) => p.title)).toContain('Korv');
  });

  it('refuse a route that declares nothing, and the walk names it', async () => {
    const other = await createTestApp({
      extend: (app) => {
        app.get('/api/admin/undeclared', async () => ({ secret: true }));
      },
    });
    try {
      expect(undeclared(other.app)).toEqual([
        'GET /api/admin/undeclared declares no permission (config.staff)',
      ]);
      const res = await other.app.inject({ method: 'GET', url: '/api/admin/undeclared' });
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toContain('secret');
    } finally {
      await other.close();
    }
  });
});

/** Rows of another site or language anywhere in an answer. */
function collectOutside(value: unknown, found: unknown[]): void {
  if (Array.isArray(value)) {
    for (const item of value) collectOutside(item, found);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const row = value as Record<string, unknown>;
  if (
    'siteId' in row &&
    (row.siteId !== 'jyvabroiler' || ('lang' in row && row.lang !== 'fi' && row.lang !== null))
  ) {
    found.push(row);
  }
  for (const child of Object.values(row)) collectOutside(child, found);
}

/** A person to ask about who is in no store (a search and an erasure that find nothing). */
const NOBODY = 'ei.ketaan@example.fi';
const NO_COUNTS = Object.fromEntries(PERSON_STORES.map((store) => [store, 0]));

/**
 * Writes about no one site, with the body they are made with: the personal-data requests
 * (decision 159) look for a person on every site and keep to the rows of the staff member's
 * grants, so a site-limited grant is answered 200 with only its own sites' rows. The person is
 * the sample submission's and order's (both outside the limited grant): nothing of them is found
 * or erased.
 */
const CROSS_SITE_WRITES: Record<string, unknown> = {
  [`POST ${PERSONAL_DATA_API}/search`]: { email: 'maija@example.fi' },
  [`POST ${PERSONAL_DATA_API}/export`]: { email: 'maija@example.fi' },
  [`POST ${PERSONAL_DATA_API}/erase`]: { email: 'maija@example.fi', counts: NO_COUNTS },
};

/**
 * One write per write route, as an administrator would make it: each leaves exactly one audit
 * row. A new write route needs its sample here, or this fails.
 */
const SAMPLES: Record<
  string,
  (ctx: { newStaffId: () => Promise<string> }) => Promise<{ url: string; body?: unknown }>
> = {
  'POST /api/admin/staff': async () => ({
    url: '/api/admin/staff',
    body: {
      email: `uusi-${Date.now()}@kattaus.example`,
      name: 'Uusi',
      lang: 'sv',
      grants: [{ role: 'editor', sites: ['sibylla'], langs: ['sv'] }],
    },
  }),
  'PUT /api/admin/staff/:id/grants': async ({ newStaffId }) => ({
    url: `/api/admin/staff/${await newStaffId()}/grants`,
    body: { grants: [{ role: 'publisher', sites: null, langs: ['fi'] }] },
  }),
  'POST /api/admin/staff/:id/disable': async ({ newStaffId }) => ({
    url: `/api/admin/staff/${await newStaffId()}/disable`,
  }),
  'POST /api/admin/staff/:id/enable': async ({ newStaffId }) => ({
    url: `/api/admin/staff/${await newStaffId()}/enable`,
  }),
  'POST /api/admin/staff/:id/enrolment-link': async ({ newStaffId }) => ({
    url: `/api/admin/staff/${await newStaffId()}/enrolment-link`,
  }),
  'POST /api/admin/roles': async () => ({
    url: '/api/admin/roles',
    body: {
      key: `rooli-${Date.now()}`,
      name: { fi: 'Rooli', sv: 'Roll', en: 'Role' },
      permissions: ['content.edit'],
    },
  }),
  'PUT /api/admin/roles/:key': async () => ({
    url: '/api/admin/roles/publisher',
    body: {
      name: { fi: 'Julkaisija', sv: 'Publicerare', en: 'Publisher' },
      permissions: ['content.edit', 'content.publish'],
    },
  }),
  'POST /api/admin/profile': async () => ({
    url: '/api/admin/profile',
    body: { name: 'Ylläpitäjä', lang: 'fi' },
  }),
  'POST /api/admin/profile/password': async () => ({
    url: '/api/admin/profile/password',
    body: { currentPassword: admin.password, newPassword: admin.password },
  }),
  'POST /api/admin/profile/passkeys': async () => {
    await admin.visitor.post('/api/admin/auth/reauth', json({ password: admin.password }));
    const options = await admin.visitor.get('/api/admin/profile/passkeys/options');
    return {
      url: '/api/admin/profile/passkeys',
      body: { response: softAuthenticator('http://localhost:80').register(options.json()) },
    };
  },
  'DELETE /api/admin/profile/passkeys/:id': async () => {
    await admin.visitor.post('/api/admin/auth/reauth', json({ password: admin.password }));
    const options = await admin.visitor.get('/api/admin/profile/passkeys/options');
    const added = await admin.visitor.post(
      '/api/admin/profile/passkeys',
      json({ response: softAuthenticator('http://localhost:80').register(options.json()) }),
    );
    const { passkeys } = added.json() as { passkeys: { id: string }[] };
    return { url: `/api/admin/profile/passkeys/${passkeys.at(-1)?.id}` };
  },
  'POST /api/admin/profile/recovery-codes': async () => ({
    url: '/api/admin/profile/recovery-codes',
  }),
  ...inboxSamples(),
  ...orderSamples(),
  ...catalogueSamples(),
  ...promotionSamples(),
  [`POST ${CUSTOMERS_API}/:id/lock`]: async () => ({
    url: `${CUSTOMERS_API}/${(await createCustomer(t.app.db)).id}/lock`,
    body: { locked: true, reason: 'Väärinkäyttö' },
  }),
  [`POST ${CUSTOMERS_API}/:id/password-reset`]: async () => ({
    url: `${CUSTOMERS_API}/${(await createCustomer(t.app.db)).id}/password-reset`,
  }),
  ...deliverySamples(),
  ...reviewSamples(),
  ...subscriberSamples(),
  [`POST ${PERSONAL_DATA_API}/search`]: async () => ({
    url: `${PERSONAL_DATA_API}/search`,
    body: { email: NOBODY },
  }),
  [`POST ${PERSONAL_DATA_API}/export`]: async () => ({
    url: `${PERSONAL_DATA_API}/export`,
    body: { email: NOBODY },
  }),
  [`POST ${PERSONAL_DATA_API}/erase`]: async () => ({
    url: `${PERSONAL_DATA_API}/erase`,
    body: { email: NOBODY, counts: NO_COUNTS },
  }),
  ...recipeSamples(),
  ...scheduleSamples(),
  ...pageSamples(),
  ...mediaSamples(),
  ...kindSamples(),
  ...synonymSamples(),
  ...formSettingSamples(),
  'POST /api/admin/auth/reauth': async () => ({
    url: '/api/admin/auth/reauth',
    body: { password: admin.password },
  }),
};

describe('every admin write', () => {
  it('leaves exactly one audit row, in its own name', async () => {
    const writes = guarded().filter((r) => r.method !== 'GET');
    const missing = writes.map((r) => `${r.method} ${r.url}`).filter((k) => !SAMPLES[k]);
    expect(missing).toEqual([]);
    const newStaffId = async () =>
      (await enrolledStaff(t.app, [{ role: 'editor', sites: null, langs: null }])).id;
    const wrong: string[] = [];
    for (const route of writes) {
      const key = `${route.method} ${route.url}`;
      const sample = await (SAMPLES[key] as (typeof SAMPLES)[string])({ newStaffId });
      await admin.visitor.post('/api/admin/auth/reauth', json({ password: admin.password }));
      const before = await auditCount(t.app);
      const res = await admin.visitor.request(
        route.method as 'POST',
        sample.url,
        sample.body === undefined ? {} : json(sample.body),
      );
      const after = await auditCount(t.app);
      const row = await lastAudit(t.app);
      if (res.statusCode !== 200 || after - before !== 1 || row?.staffId !== admin.id)
        wrong.push(`${key}: ${res.statusCode}, ${after - before} rows ${res.body.slice(0, 200)}`);
    }
    expect(wrong).toEqual([]);
  });
});

/** The inbox's writes, each on the submission's version as it is now. */
function inboxSamples(): typeof SAMPLES {
  const current = async () => {
    const res = await admin.visitor.get(`${INBOX_API}/${someSubmissionId}`);
    return res.json() as { version: number; legalHold: boolean };
  };
  const on = (path: string) => `${INBOX_API}/${someSubmissionId}/${path}`;
  return {
    [`POST ${INBOX_API}/:id/state`]: async () => ({
      url: on('state'),
      body: { state: 'in_progress', version: (await current()).version },
    }),
    [`POST ${INBOX_API}/:id/assignee`]: async () => ({
      url: on('assignee'),
      body: { assigneeId: admin.id, version: (await current()).version },
    }),
    [`POST ${INBOX_API}/:id/hold`]: async () => {
      const now = await current();
      return { url: on('hold'), body: { legalHold: !now.legalHold, version: now.version } };
    },
    [`POST ${INBOX_API}/:id/notes`]: async () => ({ url: on('notes'), body: { text: 'Muistio' } }),
    [`POST ${INBOX_API}/:id/reply`]: async () => ({ url: on('reply'), body: { text: 'Vastaus' } }),
  };
}

/** The order routes' writes, each on an order of its own. */
function orderSamples(): typeof SAMPLES {
  return {
    [`POST ${ORDERS_API}/fulfilment`]: async () => {
      const order = await createOrder(t.app.db, { customerId: null, status: 'paid' });
      return {
        url: `${ORDERS_API}/fulfilment`,
        body: { orders: [{ id: order.id, from: 'unfulfilled' }], to: 'packed' },
      };
    },
    [`POST ${ORDERS_API}/:id/cancel`]: async () => {
      const order = await createOrder(t.app.db, { customerId: null });
      return { url: `${ORDERS_API}/${order.id}/cancel`, body: { reason: 'Asiakkaan pyyntö' } };
    },
    [`POST ${ORDERS_API}/:id/refunds`]: async () => {
      const order = await paidAtTestBank(t);
      return {
        url: `${ORDERS_API}/${order.id}/refunds`,
        body: { key: randomUUID(), amountCents: 500 },
      };
    },
    [`POST ${ORDERS_API}/:id/notes`]: async () => ({
      url: `${ORDERS_API}/${someOrderId}/notes`,
      body: { text: 'Soitettu asiakkaalle' },
    }),
  };
}

/** The catalogue's writes, each on the sample product as it is now. */
function catalogueSamples(): typeof SAMPLES {
  const on = (what: string) => `${CATALOGUE_API}/products/${SAMPLE_PRODUCT}/${what}`;
  return {
    [`POST ${CATALOGUE_API}/products/:code/stock`]: async () => ({
      url: on('stock'),
      body: { stock: 9, expected: 10 },
    }),
    [`POST ${CATALOGUE_API}/products/:code/date-stock`]: async () => ({
      url: on('date-stock'),
      body: { date: '2030-01-07', capacity: 5 },
    }),
    [`POST ${CATALOGUE_API}/products/:code/weekly`]: async () => ({
      url: on('weekly'),
      body: { quantities: [1, 2, 3, 4, 5, null, null] },
    }),
    [`POST ${CATALOGUE_API}/products/:code/price`]: async () => ({
      url: on('price'),
      body: { priceCents: 120, taxClass: 'food', expected: { priceCents: 100, taxClass: 'food' } },
    }),
  };
}

/** Coupons and gift cards: each write on rows of its own. */
function promotionSamples(): typeof SAMPLES {
  const coupon = (code: string) => ({
    code,
    description: '',
    percentOff: 10,
    amountOffCents: null,
    productGroup: null,
    minOrderCents: 0,
    validFrom: null,
    validTo: null,
    maxUses: null,
    maxUsesPerCustomer: null,
    combinable: true,
    active: true,
  });
  const newCard = async () => {
    const res = await admin.visitor.post(
      GIFT_CARDS_API,
      json({ amountCents: 1000, validTo: null, reason: 'Hyvitys' }),
    );
    return res.json() as { code: string; card: { id: number; balanceCents: number } };
  };
  return {
    [`POST ${COUPONS_API}`]: async () => ({
      url: COUPONS_API,
      body: coupon(`UUSI${Date.now()}`),
    }),
    [`PUT ${COUPONS_API}/:id`]: async () => {
      const made = await admin.visitor.post(COUPONS_API, json(coupon(`MUOKKA${Date.now()}`)));
      const row = made.json() as { id: number; code: string; version: number };
      return {
        url: `${COUPONS_API}/${row.id}`,
        body: { coupon: { ...coupon(row.code), percentOff: 15 }, version: row.version },
      };
    },
    [`POST ${GIFT_CARDS_API}`]: async () => ({
      url: GIFT_CARDS_API,
      body: { amountCents: 2500, validTo: '2030-12-31', reason: 'Reklamaatio' },
    }),
    [`POST ${GIFT_CARDS_API}/find`]: async () => ({
      url: `${GIFT_CARDS_API}/find`,
      body: { code: (await newCard()).code },
    }),
    [`POST ${GIFT_CARDS_API}/:id/adjust`]: async () => {
      const { card } = await newCard();
      return {
        url: `${GIFT_CARDS_API}/${card.id}/adjust`,
        body: { deltaCents: -300, expectedBalanceCents: card.balanceCents, reason: 'Korjaus' },
      };
    },
  };
}

/** The delivery routes' writes, each on an area of its own. */
function deliverySamples(): typeof SAMPLES {
  const areas = `${DELIVERY_API}/areas`;
  const newArea = async () => {
    const [area] = await t.app.db
      .insert(deliveryAreas)
      .values({ siteId: 'lihakauppa', name: `Alue ${randomUUID().slice(0, 8)}` })
      .returning();
    if (!area) throw new Error('no area');
    return area.id;
  };
  const newSlot = async () => {
    const areaId = await newArea();
    const [slot] = await t.app.db
      .insert(deliveryCalendarSlots)
      .values({ areaId, weekday: 3, startTime: '08:00', endTime: '12:00', capacity: 10 })
      .returning();
    return `${areas}/${areaId}/slots/${slot?.id}`;
  };
  const slot = {
    weekday: 3,
    startTime: '08:00',
    endTime: '12:00',
    capacity: 12,
    cutoffDaysBefore: 1,
    cutoffTime: '12:00',
  };
  return {
    [`POST ${areas}`]: async () => ({ url: areas, body: { name: 'Uusi alue' } }),
    [`PUT ${areas}/:id`]: async () => ({
      url: `${areas}/${await newArea()}`,
      body: { name: 'Nimetty', active: false },
    }),
    [`PUT ${areas}/:id/postal-codes`]: async () => ({
      url: `${areas}/${await newArea()}/postal-codes`,
      body: { postalCodes: [`9${String(Date.now()).slice(-4)}`] },
    }),
    [`POST ${areas}/:id/slots`]: async () => ({
      url: `${areas}/${await newArea()}/slots`,
      body: slot,
    }),
    [`PUT ${areas}/:id/slots/:slotId`]: async () => ({ url: await newSlot(), body: slot }),
    [`DELETE ${areas}/:id/slots/:slotId`]: async () => ({ url: await newSlot() }),
    [`POST ${areas}/:id/closed-dates`]: async () => ({
      url: `${areas}/${await newArea()}/closed-dates`,
      body: { date: '2099-12-24' },
    }),
    [`DELETE ${areas}/:id/closed-dates/:date`]: async () => {
      const areaId = await newArea();
      await t.app.db.insert(deliveryClosedDates).values({ areaId, date: '2099-12-25' });
      return { url: `${areas}/${areaId}/closed-dates/2099-12-25` };
    },
  };
}

/** Review moderation's writes, each on a waiting review of its own. */
/** The search's synonym sets (decision 164), each change on a set of its own. */
function synonymSamples(): typeof SAMPLES {
  const newSet = async () => {
    const [set] = await t.app.db
      .insert(searchSynonyms)
      .values({ lang: 'fi', kind: 'two-way', terms: [`sana${randomUUID().slice(0, 6)}`, 'toinen'] })
      .returning();
    if (!set) throw new Error('no set');
    return set;
  };
  return {
    [`POST ${SYNONYMS_API}/:lang`]: async () => ({
      url: `${SYNONYMS_API}/fi`,
      body: { kind: 'one-way', terms: ['possu'], targets: ['porsas'] },
    }),
    [`PUT ${SYNONYMS_API}/:lang/:id`]: async () => {
      const set = await newSet();
      return {
        url: `${SYNONYMS_API}/fi/${set.id}`,
        body: { kind: 'two-way', terms: [...set.terms, 'kolmas'], version: set.version },
      };
    },
    [`DELETE ${SYNONYMS_API}/:lang/:id`]: async () => {
      const set = await newSet();
      return { url: `${SYNONYMS_API}/fi/${set.id}?version=${set.version}` };
    },
  };
}

/** The forms' settings per site (decision 170), changed on the version as it is now. */
function formSettingSamples(): typeof SAMPLES {
  return {
    [`PUT ${FORM_SETTINGS_API}/:site/:form`]: async () => {
      const site = (await admin.visitor.get(`${FORM_SETTINGS_API}/jyvabroiler`)).json() as {
        forms: { form: string; version: number }[];
      };
      const version = site.forms.find((f) => f.form === 'question')?.version ?? 0;
      return {
        url: `${FORM_SETTINGS_API}/jyvabroiler/question`,
        body: { version, recipients: [`r${randomUUID().slice(0, 6)}@kattaus.example`] },
      };
    },
  };
}

function reviewSamples(): typeof SAMPLES {
  const waiting = async () => {
    const [product] = await t.app.db
      .select()
      .from(products)
      .where(eq(products.code, SAMPLE_PRODUCT))
      .limit(1);
    const [review] = await t.app.db
      .insert(productReviews)
      .values({
        siteId: 'lihakauppa',
        productId: product?.id ?? 0,
        code: SAMPLE_PRODUCT,
        language: 'fi',
        userName: 'Arvioija',
        rating: 4,
        text: 'Hyvää',
        state: 'pending',
      })
      .returning();
    return review?.id;
  };
  return {
    [`POST ${REVIEWS_API}/:id/approve`]: async () => ({
      url: `${REVIEWS_API}/${await waiting()}/approve`,
      body: { from: 'pending' },
    }),
    [`POST ${REVIEWS_API}/:id/reject`]: async () => ({
      url: `${REVIEWS_API}/${await waiting()}/reject`,
      body: { from: 'pending', reason: 'Asiaton' },
    }),
  };
}

/** The marketing lists' writes and the news release's publishing, each on rows of its own. */
function subscriberSamples(): typeof SAMPLES {
  return {
    [`POST ${SUBSCRIBERS_API}/:id/unsubscribe`]: async () => {
      const row = await createSubscription(t.app.db, { siteId: 'sibylla', list: 'newsletter' });
      return {
        url: `${SUBSCRIBERS_API}/${row.id}/unsubscribe`,
        body: { version: row.updatedAt.toISOString() },
      };
    },
    [`POST ${CAMPAIGNS_API}/:id/draws`]: async () => ({
      url: `${CAMPAIGNS_API}/${someCampaignId}/draws`,
      body: { winners: 1 },
    }),
    [`POST ${ADMIN_NEWS_API}/:id/publish`]: async () => {
      const release = await createNews(t.app.db, {
        siteId: 'sibylla',
        lang: 'sv',
        path: `/nyheter/${randomUUID()}`,
      });
      return {
        url: `${ADMIN_NEWS_API}/${release.id}/publish`,
        body: { at: null, informationTypes: ['PRM'], mailingVersion: null },
      };
    },
  };
}

/** The page routes' writes (decision 166), each on a page of its own. */
function pageSamples(): typeof SAMPLES {
  let n = 0;
  return itemSamples(
    PAGES_ADMIN_API,
    async () => {
      n += 1;
      return (await createPage(t.app.db, { siteId: 'sibylla', path: `/nayte-${n}` })).id;
    },
    {
      draft: { title: 'Luonnos' },
      preview: true,
      created: (document) => ({ ...document, parentId: null, path: `/uusi-${Date.now()}` }),
    },
  );
}

/**
 * The writes of the item routes every kind shares (`contentItemRoutes`) on one kind's API, each
 * on an item of its own that `make` inserts: a save, a publish and a restore of a draft (version
 * 2 on the seeded version, changed by `draft`), the presence; with `created` a new item of the
 * opened item's document so changed, with `preview` a preview link.
 */
function itemSamples(
  api: string,
  make: () => Promise<number>,
  options: {
    draft?: Record<string, unknown>;
    preview?: boolean;
    created?: (document: Record<string, unknown>) => Record<string, unknown>;
  } = {},
): typeof SAMPLES {
  const { draft = {}, preview = false, created } = options;
  /** A new item, opened: its id and its document. */
  const opened = async () => {
    const id = await make();
    const open = await admin.visitor.get(`${api}/${id}`);
    return { id, document: open.json().head.document as Record<string, unknown> };
  };
  const drafted = async () => {
    const { id, document } = await opened();
    await admin.visitor.request(
      'PUT',
      `${api}/${id}`,
      json({ basedOn: 1, document: { ...document, ...draft } }),
    );
    return id;
  };
  const samples: typeof SAMPLES = {
    [`PUT ${api}/:id`]: async () => {
      const { id, document } = await opened();
      return { url: `${api}/${id}`, body: { basedOn: 1, document } };
    },
    [`POST ${api}/:id/publish`]: async () => ({
      url: `${api}/${await drafted()}/publish`,
      body: { version: 2 },
    }),
    [`POST ${api}/:id/restore`]: async () => ({
      url: `${api}/${await drafted()}/restore`,
      body: { version: 1, basedOn: 2 },
    }),
    [`PUT ${api}/:id/presence`]: async () => ({ url: `${api}/${(await opened()).id}/presence` }),
    [`DELETE ${api}/:id/presence`]: async () => {
      const { id } = await opened();
      await admin.visitor.request('PUT', `${api}/${id}/presence`);
      return { url: `${api}/${id}/presence` };
    },
  };
  if (created) {
    samples[`POST ${api}`] = async () => {
      const { document } = await opened();
      return { url: `${api}?site=sibylla&lang=fi`, body: { document: created(document) } };
    };
  }
  if (preview) {
    samples[`POST ${api}/:id/preview`] = async () => ({
      url: `${api}/${(await opened()).id}/preview`,
      body: { version: 1 },
    });
  }
  return samples;
}

/** The image library's writes (decision 168), each on an image of its own. */
function mediaSamples(): typeof SAMPLES {
  return {
    [`PUT ${MEDIA_ADMIN_API}/:id`]: async () => ({
      url: `${MEDIA_ADMIN_API}/${(await createImage(t.app.db)).id}`,
      body: { version: 1, alt: { sv: 'Ny bild' }, focus: { x: 0.3, y: 0.6 } },
    }),
    [`PUT ${MEDIA_ADMIN_API}/:id/file`]: async () => ({
      url: `${MEDIA_ADMIN_API}/${(await createImage(t.app.db)).id}/file`,
      body: { version: 1, data: `data:image/png;base64,${(await png()).toString('base64')}` },
    }),
    [`DELETE ${MEDIA_ADMIN_API}/:id`]: async () => ({
      url: `${MEDIA_ADMIN_API}/${(await createImage(t.app.db)).id}?version=1`,
    }),
  };
}

/** The recipe routes' writes (decision 162), each on a recipe of its own. */
function recipeSamples(): typeof SAMPLES {
  let n = 0;
  return {
    ...itemSamples(
      RECIPES_ADMIN_API,
      async () => {
        n += 1;
        const path = `/reseptit/nayte-${n}`;
        return (await createRecipe(t.app.db, { siteId: 'sibylla', path })).id;
      },
      {
        draft: { title: 'Luonnos' },
        preview: true,
        created: (document) => ({ ...document, path: `/reseptit/uusi-${Date.now()}` }),
      },
    ),
    [`POST ${CONTENT_IMAGES_API}`]: async () => ({
      url: `${CONTENT_IMAGES_API}?site=sibylla&lang=fi`,
      body: { data: `data:image/png;base64,${(await png()).toString('base64')}`, alt: 'Kuva' },
    }),
  };
}

/** Unpublishing, schedules and bulk actions (decision 167), and news releases' drafts. */
function scheduleSamples(): typeof SAMPLES {
  let n = 0;
  const recipe = async () => {
    n += 1;
    return (await createRecipe(t.app.db, { siteId: 'sibylla', path: `/reseptit/ajastus-${n}` })).id;
  };
  const release = async () =>
    (
      await createNews(t.app.db, {
        siteId: 'sibylla',
        lang: 'sv',
        path: `/nyheter/${randomUUID()}`,
      })
    ).id;
  const later = () => new Date(Date.now() + 3_600_000).toISOString();
  const news = (path: string) => ({
    path,
    title: 'Nyhet',
    teaser: '',
    bodyHtml: '<p>Text.</p>',
    imageId: null,
    authors: [],
    textType: null,
    source: 'cision',
    categoryIds: [],
    facetTagIds: [],
  });
  const scheduled = async (api: string, id: number) => {
    const res = await admin.visitor.post(
      `${api}/${id}/schedules`,
      json({ action: 'unpublish', at: later(), version: 1 }),
    );
    return (res.json() as { schedules: { id: number }[] }).schedules[0]?.id ?? 0;
  };
  /** Unpublish, schedule, cancel and bulk of one kind under `api`, on items `item` makes. */
  const lifecycleSamples = (api: string, item: () => Promise<number>): typeof SAMPLES => ({
    [`POST ${api}/:id/unpublish`]: async () => ({
      url: `${api}/${await item()}/unpublish`,
      body: { version: 1 },
    }),
    [`POST ${api}/:id/schedules`]: async () => ({
      url: `${api}/${await item()}/schedules`,
      body: { action: 'unpublish', at: later(), version: 1 },
    }),
    [`POST ${api}/:id/schedules/:scheduleId/cancel`]: async () => {
      const id = await item();
      return { url: `${api}/${id}/schedules/${await scheduled(api, id)}/cancel` };
    },
    [`POST ${api}/bulk`]: async () => ({
      url: `${api}/bulk`,
      body: { action: 'unpublish', items: [{ id: await item(), version: 1 }] },
    }),
  });
  const page = async () => {
    n += 1;
    return (await createPage(t.app.db, { siteId: 'sibylla', path: `/ajastus-${n}` })).id;
  };
  return {
    ...lifecycleSamples(RECIPES_ADMIN_API, recipe),
    ...lifecycleSamples(PAGES_ADMIN_API, page),
    ...lifecycleSamples(NEWS_RELEASES_API, release),
    ...newsReleaseSamples(release),
    [`POST ${ADMIN_NEWS_API}`]: async () => ({
      url: `${ADMIN_NEWS_API}?site=sibylla&lang=sv`,
      body: { document: news(`/nyheter/${randomUUID()}`) },
    }),
    [`PUT ${ADMIN_NEWS_API}/:id`]: async () => {
      const path = `/nyheter/${randomUUID()}`;
      const made = await admin.visitor.post(
        `${ADMIN_NEWS_API}?site=sibylla&lang=sv`,
        json({ document: news(path) }),
      );
      return {
        url: `${ADMIN_NEWS_API}/${(made.json() as { id: number }).id}`,
        body: { basedOn: 1, document: { ...news(path), title: 'Nyhet 2' } },
      };
    },
    [`POST ${ADMIN_NEWS_API}/:id/unpublish`]: async () => ({
      url: `${ADMIN_NEWS_API}/${await release()}/unpublish`,
      body: { version: 1 },
    }),
    [`POST ${ADMIN_NEWS_API}/:id/schedules`]: async () => ({
      url: `${ADMIN_NEWS_API}/${await release()}/schedules`,
      body: { action: 'unpublish', at: later(), version: 1 },
    }),
    [`POST ${ADMIN_NEWS_API}/:id/schedules/:scheduleId/cancel`]: async () => {
      const id = await release();
      return {
        url: `${ADMIN_NEWS_API}/${id}/schedules/${await scheduled(ADMIN_NEWS_API, id)}/cancel`,
      };
    },
  };
}

/** A news release in the shared editor's routes (decision 172), each on a release of its own. */
function newsReleaseSamples(release: () => Promise<number>): typeof SAMPLES {
  // Published without categories: one row (with them, `news.publish` joins it: news-editor.test.ts).
  return itemSamples(NEWS_RELEASES_API, release, { draft: { title: 'Utkast' }, preview: true });
}

/** One row of each kind of decision 171 on sibylla in a language, numbered `n`, by its API. */
async function kindRows(n: number, lang: string): Promise<Record<string, number>> {
  const db = t.app.db;
  const row = { siteId: 'sibylla', lang };
  const product = await createProduct(db, { ...row, path: `/tuotteet/nayte-${lang}-${n}` });
  const [job] = await db
    .insert(jobs)
    .values({
      ...row,
      title: `Työ ${n}`,
      city: 'Forssa',
      url: '/ura',
      applicationPeriodEnd: new Date(Date.now() + 86_400_000),
    })
    .returning();
  const [material] = await db
    .insert(schoolMaterials)
    .values({ ...row, material: `Materiaali ${lang} ${n}`, url: '/materiaali.pdf' })
    .returning();
  const [year] = await db
    .insert(timelineYears)
    .values({ ...row, year: 1800 + n, title: `Vuosi ${n}`, text: 'Teksti' })
    .returning();
  const [button] = await db
    .insert(mapRegions)
    .values({ ...row, number: n, buttonLabel: `Paikka ${n}`, buttonRegion: 'Alue', buttonInfo: '' })
    .returning();
  return {
    [PRODUCTS_ADMIN_API]: product.id,
    [JOBS_ADMIN_API]: job?.id ?? 0,
    [SCHOOL_MATERIALS_ADMIN_API]: material?.id ?? 0,
    [TIMELINE_ADMIN_API]: year?.id ?? 0,
    [MAP_REGIONS_ADMIN_API]: button?.id ?? 0,
  };
}

/**
 * The writes of products, job listings, school materials, timeline years and map buttons
 * (decision 171), each on a row of its own (in Finnish: the Swedish ones are the sample rows).
 */
function kindSamples(): typeof SAMPLES {
  let n = 1;
  /** A new row's document with what must be its own made so (a code, a name, a year…). */
  const fresh: Record<string, (doc: Record<string, unknown>) => Record<string, unknown>> = {
    [PRODUCTS_ADMIN_API]: (doc) => ({ ...doc, path: `/tuotteet/uusi-${n}`, code: `UUSI-${n}` }),
    [JOBS_ADMIN_API]: (doc) => doc,
    [SCHOOL_MATERIALS_ADMIN_API]: (doc) => ({ ...doc, material: `Uusi ${n}` }),
    [TIMELINE_ADMIN_API]: (doc) => ({ ...doc, year: 2100 - n }),
    [MAP_REGIONS_ADMIN_API]: (doc) => ({ ...doc, number: 99 - n }),
  };
  return Object.fromEntries(
    Object.entries(fresh).flatMap(([api, created]) =>
      Object.entries(
        itemSamples(
          api,
          async () => {
            n += 1;
            return (await kindRows(n, 'fi'))[api] ?? 0;
          },
          { created, preview: api === PRODUCTS_ADMIN_API },
        ),
      ),
    ),
  );
}
