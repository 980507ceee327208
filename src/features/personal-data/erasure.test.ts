import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { type S3StandIn, startS3StandIn } from '../../../tests/helpers/s3.ts';
import { type Enrolled, enrolledStaff, json } from '../../../tests/helpers/staff.ts';
import { arrive, type Visitor } from '../../../tests/helpers/visitor.ts';
import { sessions } from '../../server/tables.ts';
import { products } from '../content/tables.ts';
import { openBytes, openText, sealText } from '../forms/crypto.server.ts';
import {
  dataUrl,
  png,
  solvedCaptcha,
  testFormsConfig,
  validPayload,
} from '../forms/forms.test-support.ts';
import { forms } from '../forms/forms.ts';
import { enqueueMail } from '../forms/outbox.server.ts';
import { formSubmissions } from '../forms/tables.ts';
import { submissionEvents, submissionHandling } from '../inbox/tables.ts';
import { CUSTOMERS_API } from '../shop/admin/customers-schemas.ts';
import { type DailyReport, ORDERS_API, REPORT_API } from '../shop/admin/schemas.ts';
import { CUSTOMER_API } from '../shop/customer/schemas.ts';
import {
  addToCart,
  buyer,
  CODES,
  createCheckoutShop,
  held,
  order,
  pathOf,
  testBank,
} from '../shop/orders/checkout.test-support.ts';
import { orderAnswerSchema } from '../shop/orders/schemas.ts';
import { REVIEW_API } from '../shop/reviews/schemas.ts';
import { orders } from '../shop/tables.ts';
import { auditLog } from '../staff/tables.ts';
import {
  campaignParticipations,
  campaigns,
  newsReleaseMailings,
  newsReleaseMails,
  subscriptions,
} from '../subscriptions/tables.ts';
import { type Erased, PERSON_STORES, PERSONAL_DATA_API, type PersonFound } from './schemas.ts';
import { readZip } from './zip.test-support.ts';

/**
 * Issue 36's personal-data request from end to end (decision 159), once with the files in a
 * local folder and once in an S3 bucket (s3rver): a test person and another person each in all
 * seven stores (an account that ordered and paid, reviewed, sent a complaint with a photo on
 * another site, subscribed, joined a campaign, and got mails); the data-protection officer finds
 * the test person in all seven, exports one archive holding all of it, and erases them. Then a
 * scan of every table (every column as text, sealed values opened) and of every file in the
 * store finds no trace of their address, name, phone or photo, the other person is all there,
 * and the day's sales report (totals and VAT per rate) is what it was.
 */

interface Person {
  email: string;
  firstName: string;
  lastName: string;
  street: string;
  phone: string;
  /** Distinct strings of this person: none may be left anywhere after the erasure. */
  needles: string[];
  photo: Buffer;
  photoName: string;
}

const subjects = [
  { name: 'with files in a local folder', s3: false },
  { name: 'with files in an S3 bucket', s3: true },
];

describe.each(subjects)('a personal-data request, $name', ({ s3 }) => {
  let t: TestApp;
  let standIn: S3StandIn | undefined;
  let dpo: Enrolled;
  let reporter: Enrolled;
  let scopedDpo: Enrolled;
  let service: Enrolled;
  let testPerson: Person;
  let otherPerson: Person;
  let shopperOf: Map<Person, Visitor>;
  let reportBefore: DailyReport;
  let found: PersonFound;

  beforeAll(async () => {
    standIn = s3 ? await startS3StandIn() : undefined;
    t = await createTestApp({
      config: {
        forms: testFormsConfig(),
        ...(standIn ? { s3: standIn.config } : {}),
      },
    });
    await createCheckoutShop(t.app.db);
    const now = Date.now();
    await t.app.db.insert(campaigns).values({
      id: 'kesakisa',
      siteId: 'ammattilaiset',
      name: 'Kesäkisa',
      startsAt: new Date(now - 864e5),
      endsAt: new Date(now + 864e5),
    });
    dpo = await enrolledStaff(t.app, [{ role: 'dpo', sites: null, langs: null }]);
    reporter = await enrolledStaff(t.app, [{ role: 'shop-staff', sites: null, langs: null }]);
    scopedDpo = await enrolledStaff(t.app, [{ role: 'dpo', sites: ['jyvabroiler'], langs: null }]);
    service = await enrolledStaff(t.app, [{ role: 'customer-service', sites: null, langs: null }]);
    testPerson = await person('Tietosuoja.Testi@Example.fi', 'Tuulikki', 'Tietosuojainen', {
      street: 'Tietosuojakuja 9',
      phone: '040 765 4329',
      photoName: 'tuulikki-valitus.png',
    });
    otherPerson = await person('olli.muukalainen@example.fi', 'Olli', 'Muukalainen', {
      street: 'Muukalaisentie 4',
      phone: '050 313 2468',
      photoName: 'olli-valitus.png',
    });
    shopperOf = new Map();
    for (const p of [testPerson, otherPerson]) shopperOf.set(p, await seedAllSeven(p));
    reportBefore = await dailyReport();
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await standIn?.stop();
  });

  async function person(
    email: string,
    firstName: string,
    lastName: string,
    more: { street: string; phone: string; photoName: string },
  ): Promise<Person> {
    const digits = more.phone.replace(/\D/g, '').slice(-7);
    return {
      email,
      firstName,
      lastName,
      ...more,
      needles: [
        email.toLowerCase(),
        firstName,
        lastName,
        more.street.split(' ')[0] ?? '',
        digits,
      ].map((n) => n.toLowerCase()),
      photo: await png(17 + firstName.length, 11),
    };
  }

  /** The person in each of the seven stores; answers their shopper's browser (signed in). */
  let mailings = 0;
  async function seedAllSeven(p: Person): Promise<Visitor> {
    // Customer account: registered, with their name, address and phone; an order paid at the
    // test bank (mails to them and the shop's copy about them go to the outbox); a review.
    const shopper = await buyer(t.app, { email: p.email, streetAddress: p.street });
    const address = await shopper.post(
      CUSTOMER_API,
      json({
        firstName: p.firstName,
        lastName: p.lastName,
        streetAddress: p.street,
        postalCode: '00100',
        city: 'Helsinki',
        phoneNumber: p.phone,
        isPrivateCustomer: true,
      }),
    );
    expect(address.statusCode, address.body).toBe(200);
    await addToCart(shopper, CODES.plain);
    const res = await order(shopper, await held(shopper));
    expect(res.statusCode, res.body).toBe(200);
    const answer = orderAnswerSchema.parse(res.json());
    const back = await testBank(shopper, answer.next, 'ok');
    expect((await shopper.get(pathOf(back))).statusCode).toBe(303);
    const [product] = await t.app.db
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.code, CODES.plain), eq(products.siteId, 'lihakauppa')));
    const review = await shopper.post(
      REVIEW_API,
      json({
        productId: product?.id,
        rating: 4,
        text: `Hyvää, terveisin ${p.firstName}`,
        userName: p.firstName,
      }),
    );
    expect(review.statusCode, review.body).toBe(200);

    // A complaint with a photo through the public form of another site, and a note on it.
    const visitor = await arrive(t.app, '/', { host: 'jyvabroiler.localhost' });
    const payload = await validPayload('complaint');
    Object.assign(payload.Data as object, {
      Firstname: p.firstName,
      Lastname: p.lastName,
      StreetAddress: p.street,
      Phone: p.phone,
      Email: ` ${p.email.toUpperCase()} `,
    });
    payload.Files = [{ Name: p.photoName, Data: dataUrl('image/png', p.photo) }];
    payload.MTCaptchaToken = await solvedCaptcha(t.app);
    const sent = await visitor.post(forms.complaint.path, {
      headers: { host: 'jyvabroiler.localhost', 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const [submission] = await t.app.db
      .select({ id: formSubmissions.id })
      .from(formSubmissions)
      .orderBy(sql`${formSubmissions.createdAt} desc`)
      .limit(1);
    const key = t.app.config.forms.encryptionKey;
    await t.app.db.insert(submissionHandling).values({ submissionId: submission?.id ?? '' });
    await t.app.db.insert(submissionEvents).values({
      submissionId: submission?.id ?? '',
      kind: 'note',
      sealedText: sealText(key, `Soitettu: ${p.firstName} ${p.phone}`),
    });

    // A subscription with its consent record, a campaign entry, and a mail to them alone.
    await t.app.db.insert(subscriptions).values({
      siteId: 'sibylla',
      list: 'newsletter',
      email: p.email,
      lang: 'fi',
      status: 'confirmed',
      source: 'newsletter-modal',
      consentText: 'Haluan uutiskirjeen',
      consentAt: new Date(),
      confirmedAt: new Date(),
    });
    await t.app.db.insert(campaignParticipations).values({
      campaignId: 'kesakisa',
      email: p.email,
      lang: 'fi',
      isAdult: true,
      acceptedRules: true,
      wantsNewsletter: false,
    });
    // A news release mailed to them (decision 158): the mailing keeps the address it went to.
    mailings += 1;
    const [mailing] = await t.app.db
      .insert(newsReleaseMailings)
      .values({
        releaseId: 900_000 + mailings,
        siteId: 'sibylla',
        lang: 'fi',
        translationKey: `tiedote-${mailings}`,
        informationTypes: ['Lehdistötiedote'],
        versions: [],
        siteUrl: 'http://sibylla.localhost',
        sendAt: new Date(),
        status: 'sent',
      })
      .returning({ id: newsReleaseMailings.id });
    await t.app.db.insert(newsReleaseMails).values({
      mailingId: mailing?.id ?? 0,
      siteId: 'sibylla',
      translationKey: `tiedote-${mailings}`,
      address: p.email.toLowerCase(),
      subscriptionIds: [],
      lang: 'fi',
    });
    await enqueueMail(t.app.db, key, {
      to: p.email,
      subject: 'Vastaus kysymykseesi',
      text: `Hei ${p.firstName}, kiitos kysymyksestä.`,
    });
    return shopper;
  }

  async function dailyReport(): Promise<DailyReport> {
    const res = await reporter.visitor.get(REPORT_API);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as DailyReport;
  }

  /** Every table's rows as text, each sealed value also opened: what a copy of the database holds. */
  async function databaseText(): Promise<Map<string, string>> {
    const key = t.app.config.forms.encryptionKey;
    const tables = (await t.app.db.execute(
      sql`select table_name from information_schema.tables
          where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    )) as unknown as { rows: { table_name: string }[] };
    expect(tables.rows.length).toBeGreaterThan(40);
    const texts = new Map<string, string>();
    for (const { table_name: table } of tables.rows) {
      const rows = (await t.app.db.execute(
        sql`select row_to_json(t)::text as row from ${sql.identifier(table)} t`,
      )) as unknown as { rows: { row: string }[] };
      const parts: string[] = [];
      for (const { row } of rows.rows) {
        parts.push(row);
        for (const value of Object.values(JSON.parse(row) as Record<string, unknown>)) {
          if (typeof value === 'string' && /^v1\.[\w-]+\.[\w-]+\.[\w-]*$/.test(value)) {
            parts.push(openText(key, value));
          }
        }
      }
      texts.set(table, parts.join('\n'));
    }
    return texts;
  }

  /** Every file in the store (the folder, or the whole bucket), opened where sealed. */
  async function storedFiles(): Promise<Map<string, Buffer>> {
    const raw = new Map<string, Buffer>();
    // The bucket as s3rver keeps it on disk: every object of every bucket, whatever its prefix.
    const root = standIn ? standIn.directory : (t.filesDir as string);
    for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || entry.name.endsWith('._S3rver_metadata.json')) continue;
      const file = path.join(entry.parentPath, entry.name);
      raw.set(path.relative(root, file), await readFile(file));
    }
    if (standIn) expect(raw.size).toBeGreaterThan(0);
    const key = t.app.config.forms.encryptionKey;
    const opened = new Map<string, Buffer>();
    for (const [name, bytes] of raw) {
      opened.set(name, bytes.subarray(0, 4).toString() === 'KSv1' ? openBytes(key, bytes) : bytes);
    }
    return opened;
  }

  /** Where any of the person's strings or their photo is still found. */
  async function tracesOf(p: Person): Promise<string[]> {
    const traces: string[] = [];
    for (const [table, text] of await databaseText()) {
      const flat = text.toLowerCase().replace(/\s+/g, '');
      for (const needle of p.needles) if (flat.includes(needle)) traces.push(`${table}: ${needle}`);
    }
    for (const [name, bytes] of await storedFiles()) {
      if (bytes.equals(p.photo)) traces.push(`file ${name}: the photo`);
      const text = bytes.toString('latin1').toLowerCase();
      for (const needle of p.needles)
        if (text.includes(needle)) traces.push(`file ${name}: ${needle}`);
    }
    return traces;
  }

  const search = (staff: Enrolled, email: string) =>
    staff.visitor.post(`${PERSONAL_DATA_API}/search`, json({ email }));

  it('finds the test person in all seven stores, by the address however it is written', async () => {
    const res = await search(dpo, `  ${testPerson.email.toUpperCase()} `);
    expect(res.statusCode, res.body).toBe(200);
    found = res.json() as PersonFound;
    for (const store of PERSON_STORES) expect(found.counts[store], store).toBeGreaterThan(0);
    expect(found.counts).toMatchObject({
      customers: 1,
      orders: 1,
      submissions: 1,
      subscriptions: 1,
      campaignEntries: 1,
      reviews: 1,
    });
    // The mails to them (registration link, order confirmation, the answer) and about them (the
    // shop's copy of the order, the complaint's notification to customer service).
    expect(found.counts.outbox).toBeGreaterThanOrEqual(4);
    expect(found.erasable).toEqual(found.counts);
    expect(found.records.some((r) => r.summary.includes('olli'))).toBe(false);
    // Audited under the hash, never the address.
    const [row] = await t.app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'personal-data.search'))
      .orderBy(sql`${auditLog.id} desc`)
      .limit(1);
    expect(row).toMatchObject({ staffId: dpo.id, subjectType: 'person', subjectId: found.subject });
    expect(JSON.stringify(row).toLowerCase()).not.toContain('tietosuoja.testi');
  });

  it('finds only the rows of the grant’s sites for a site-limited officer', async () => {
    const res = await search(scopedDpo, testPerson.email);
    expect(res.statusCode, res.body).toBe(200);
    const scoped = res.json() as PersonFound;
    // The complaint was sent on jyvabroiler, with its notification; nothing else is there.
    expect(scoped.counts).toEqual({
      customers: 0,
      orders: 0,
      submissions: 1,
      subscriptions: 0,
      campaignEntries: 0,
      reviews: 0,
      outbox: 1,
    });
    expect(scoped.records.every((r) => r.siteId === 'jyvabroiler')).toBe(true);
  });

  it('refuses staff without the permission (403) and asks again for the password when it is old', async () => {
    for (const url of ['search', 'export', 'erase']) {
      const res = await service.visitor.post(
        `${PERSONAL_DATA_API}/${url}`,
        json({ email: testPerson.email, counts: found.counts }),
      );
      expect(res.statusCode, url).toBe(403);
      expect(res.json().type).toBe('/problems/forbidden');
    }
    await t.app.db.execute(
      sql`update staff_sessions set verified_at = now() - interval '6 minutes' where staff_id = ${scopedDpo.id}`,
    );
    const stale = await search(scopedDpo, testPerson.email);
    expect(stale.statusCode).toBe(403);
    expect(stale.json().type).toBe('/problems/reauth');
  });

  it('exports one archive holding all of it: every store’s rows and the photo', async () => {
    const res = await dpo.visitor.post(
      `${PERSONAL_DATA_API}/export`,
      json({ email: testPerson.email }),
    );
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="henkilotiedot-/);
    const files = readZip(res.rawPayload);
    const person = JSON.parse(files.get('person.json')?.toString() ?? '{}') as {
      address: string;
      counts: Record<string, number>;
      stores: Record<string, Record<string, unknown>[]>;
    };
    expect(person.address).toBe(testPerson.email.toLowerCase());
    expect(person.counts).toEqual(found.counts);
    for (const store of PERSON_STORES) {
      expect(person.stores[store]?.length, store).toBe(found.counts[store]);
    }
    const text = JSON.stringify(person.stores).toLowerCase();
    for (const needle of testPerson.needles) expect(text, needle).toContain(needle);
    expect(text).not.toContain('muukalainen');
    // The submission opened with its note, and its photo beside it under files/.
    const [submission] = person.stores.submissions as {
      data: Record<string, unknown>;
      handling: { timeline: { text: string }[] };
      files: { name: string; archivePath: string }[];
    }[];
    expect(submission?.data.Firstname).toBe(testPerson.firstName);
    expect(submission?.handling.timeline[0]?.text).toContain(testPerson.firstName);
    expect(submission?.files[0]?.name).toBe(testPerson.photoName);
    expect(files.get(submission?.files[0]?.archivePath ?? '')).toEqual(testPerson.photo);
    expect(files.size).toBe(2);
    expect(person.stores.customers?.[0]).not.toHaveProperty('passwordHash');
    const [row] = await t.app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'personal-data.export'));
    expect(row).toMatchObject({ staffId: dpo.id, subjectId: found.subject });
    expect(JSON.stringify(row).toLowerCase()).not.toContain('tietosuoja.testi');
  });

  it('erases nothing on counts that are no longer true (409)', async () => {
    const res = await dpo.visitor.post(
      `${PERSONAL_DATA_API}/erase`,
      json({ email: testPerson.email, counts: { ...found.erasable, reviews: 2 } }),
    );
    expect(res.statusCode, res.body).toBe(409);
    expect((await search(dpo, testPerson.email)).json().counts).toEqual(found.counts);
  });

  it('erases the person: no table or file holds their address, name, phone or photo after', async () => {
    // Shop staff looked the person up by address (the audit log keeps those searches hashed).
    for (const api of [CUSTOMERS_API, ORDERS_API]) {
      const res = await reporter.visitor.get(`${api}?q=${encodeURIComponent(testPerson.email)}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body.toLowerCase()).toContain(testPerson.email.toLowerCase());
    }
    // Before: the scan finds both people (it is no scan that cannot find anything).
    const before = await tracesOf(testPerson);
    expect(before.length).toBeGreaterThan(10);
    expect(before.some((trace) => trace.endsWith(': the photo'))).toBe(true);
    const otherBefore = await tracesOf(otherPerson);
    const auditBefore = await t.app.db.$count(auditLog);

    const res = await dpo.visitor.post(
      `${PERSONAL_DATA_API}/erase`,
      json({ email: testPerson.email, counts: found.erasable }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const erased = res.json() as Erased;
    expect(erased.erased).toEqual(found.erasable);
    expect(erased).toMatchObject({ kept: 0, filesDeleted: 1, filesPending: 0 });
    expect(erased.sessionsEnded).toBeGreaterThanOrEqual(1);

    expect(await tracesOf(testPerson)).toEqual([]);
    // The other person is all where they were.
    expect(await tracesOf(otherPerson)).toEqual(otherBefore);
    expect((await search(dpo, otherPerson.email)).json().counts).toMatchObject({
      customers: 1,
      orders: 1,
      submissions: 1,
      subscriptions: 1,
      campaignEntries: 1,
      reviews: 1,
    });

    // The test person's session is ended; the other person's is not.
    const signedIn = await t.app.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(sql`${sessions.data} -> 'customer' ->> 'id' is not null`);
    expect(signedIn).toHaveLength(1);
    const loggedIn = async (p: Person) => {
      const res = await (shopperOf.get(p) as Visitor).get(CUSTOMER_API);
      return (res.json() as { loggedIn: boolean }).loggedIn;
    };
    expect(await loggedIn(testPerson)).toBe(false);
    expect(await loggedIn(otherPerson)).toBe(true);

    // The order is kept for the books, without the person; the day's report is what it was.
    const kept = await t.app.db.select().from(orders).where(eq(orders.email, ''));
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ status: 'paid', customerId: null, phoneNumber: '' });
    expect(await dailyReport()).toEqual(reportBefore);
    expect(reportBefore.rows.filter((r) => r.kind === 'order')).toHaveLength(2);

    // Each step audited under the hash, in the officer's name; none names the address.
    const rows = await t.app.db
      .select()
      .from(auditLog)
      .where(
        sql`${auditLog.id} > ${auditBefore} and ${auditLog.action} like 'personal-data.erase%'`,
      );
    expect(rows.map((r) => r.action).sort()).toEqual(
      [
        'personal-data.erase',
        'personal-data.erase.files',
        ...PERSON_STORES.map((s) => `personal-data.erase.${s}`),
      ].sort(),
    );
    for (const row of rows) {
      expect(row).toMatchObject({
        staffId: dpo.id,
        subjectType: 'person',
        subjectId: found.subject,
      });
    }
    // Found no more.
    const after = (await search(dpo, testPerson.email)).json() as PersonFound;
    expect(Object.values(after.counts).every((n) => n === 0)).toBe(true);
  });
});
