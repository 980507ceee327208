import { createHash } from 'node:crypto';
import { CalendarDate } from '@internationalized/date';
import type { Browser, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DevSubmission } from '../../src/features/forms/dev-submissions.server.ts';
import {
  chromiumForFile,
  screenshots,
  seriousViolations,
  serverPort,
  watchProblems,
} from './browser.ts';

/**
 * The ten forms in Chromium, on the seeded pages that carry them: filled by keyboard, their
 * validation messages, the real ALTCHA challenge solved by the widget, the success behaviour,
 * axe on the form, its error state, the consent dialog and the open calendar, and what the server
 * stored: each submission's data (opened) and files, read back from the development-only JSON
 * listing `/dev/submissions` (the server's PGlite database allows no second process).
 */
const port = serverPort();
const origin = (site: string) =>
  `http://${site === 'konsernifi' ? 'localhost' : `${site}.localhost`}:${port}`;
let browser: Browser;
let png: Buffer;
let jpeg: Buffer;

chromiumForFile((b) => {
  browser = b;
});
beforeAll(async () => {
  png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#c0392b' } })
    .png()
    .toBuffer();
  jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#2980b9' } })
    .jpeg()
    .toBuffer();
});

const REQUIRED = 'Tämä kenttä on pakollinen';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * The newest stored submission of a form, which must be newer than `since`: its data opened and
 * its files read back from the file store.
 */
async function storedSubmission(form: string, since: number): Promise<DevSubmission> {
  const response = await fetch(`http://localhost:${port}/dev/submissions?form=${form}&limit=1`);
  expect(response.status).toBe(200);
  const [latest] = (await response.json()) as DevSubmission[];
  expect(latest, `a stored ${form} submission`).toBeDefined();
  expect(Date.parse(latest?.createdAt ?? '')).toBeGreaterThanOrEqual(since - 1000);
  return latest as DevSubmission;
}

/** A stored file as the listing shows it: the same name, type, length and bytes as sent. */
const storedFile = (position: number, name: string, mime: string, bytes: Buffer) => ({
  position,
  name,
  mime,
  size: bytes.length,
  storedBytes: bytes.length,
  sha256: sha256(bytes),
});

const shot = screenshots('forms');

interface Opened {
  page: Page;
  island: Locator;
  problems: ReturnType<typeof watchProblems>;
}

async function open(site: string, pagePath: string, islandName: string): Promise<Opened> {
  // axe needs a page of its own context.
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  // The analytics events pushed, kept for the tab: a form that succeeds may leave for its
  // success page, which starts a new data layer.
  await context.addInitScript(() => {
    const layer: Record<string, unknown>[] = [];
    layer.push = (...events) => {
      const kept = JSON.parse(sessionStorage.getItem('e2e-events') ?? '[]') as unknown[];
      sessionStorage.setItem('e2e-events', JSON.stringify([...kept, ...events]));
      return Array.prototype.push.apply(layer, events);
    };
    window.dataLayer = layer;
  });
  const page = await context.newPage();
  // The browser may be closing already (after the last test): then so is the context.
  page.on('close', () => {
    context.close().catch(() => {});
  });
  const problems = watchProblems(page);
  const response = await page.goto(`${origin(site)}${pagePath}`);
  expect(response?.status()).toBe(200);
  const island = page.locator(`k-island[data-name="${islandName}"]`).first();
  await island.and(page.locator('[data-hydrated]')).waitFor();
  await waitForCaptcha(island);
  return { page, island, problems };
}

/** The widget fetches and solves a real challenge as soon as it loads. */
async function waitForCaptcha(scope: Locator) {
  await scope.locator('altcha-widget .altcha[data-state="verified"]').first().waitFor({
    timeout: 30_000,
  });
}

async function typeInto(page: Page, field: Locator, text: string) {
  await field.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  if (text) await page.keyboard.type(text);
}

async function pressOn(page: Page, target: Locator, key: string) {
  await target.focus();
  await page.keyboard.press(key);
}

async function submit(page: Page, scope: Locator, name = 'Lähetä') {
  await pressOn(page, scope.getByRole('button', { name, exact: true }), 'Enter');
}

/** What a date picker shows: its segments and separators. */
async function dateText(group: Locator): Promise<string> {
  return ((await group.textContent()) ?? '').replace(/[^\p{L}\d/]/gu, '');
}

const FINNISH_MONTHS =
  /^(tammikuu|helmikuu|maaliskuu|huhtikuu|toukokuu|kesäkuu|heinäkuu|elokuu|syyskuu|lokakuu|marraskuu|joulukuu) \d{4}$/;

async function expectNoSeriousViolations(page: Page) {
  expect(await seriousViolations(page)).toEqual([]);
}

/** The analytics events the tab's pages pushed, the pages it has left included. */
const eventsSent = (page: Page) =>
  page.evaluate(() => JSON.parse(sessionStorage.getItem('e2e-events') ?? '[]') as unknown[]);

/**
 * A form that goes to its success page once sent (spec forms §2): the site's thank-you page,
 * seeded below its contact page; axe finds nothing serious there. `picture` names its
 * screenshots at 1280 and 375 px.
 */
async function expectThankYouPage(page: Page, site: string, path: string, picture?: string) {
  await page.waitForURL(`${origin(site)}${path}`);
  await page.getByRole('heading', { level: 1, name: 'Kiitos yhteydenotostasi' }).waitFor();
  await expectNoSeriousViolations(page);
  if (!picture) return;
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page, `${picture}-${width}`);
  }
}

/** A field by its label; a required field's label ends with its star. */
const label = (scope: Locator, text: string) =>
  scope.getByLabel(new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?$`));

async function fillPerson(page: Page, scope: Locator, names: Record<string, string>) {
  for (const [field, value] of Object.entries(names))
    await typeInto(page, label(scope, field), value);
}

describe('retail contact page, complaint and feedback', () => {
  it('chooses with Enter and Space, validates, asks for consent once and sends with images', async () => {
    const { page, island, problems } = await open(
      'sibylla',
      '/ota-yhteytta',
      'form-retail-contact',
    );
    await expectNoSeriousViolations(page);
    const defective = island.getByRole('radio', { name: 'VIRHEELLINEN TUOTE' });
    const other = island.getByRole('radio', { name: 'MUU ASIA' });
    expect(await defective.isChecked()).toBe(true);
    await pressOn(page, other, 'Enter');
    expect(await other.isChecked()).toBe(true);
    await island.getByRole('heading', { name: 'Palaute' }).waitFor();
    await pressOn(page, defective, 'Space');
    expect(await defective.isChecked()).toBe(true);
    const form = island.locator('form');
    await waitForCaptcha(form);

    await submit(page, form);
    const summary = form.getByRole('alert').filter({ hasText: 'Tarkista seuraavat kohdat' });
    await summary.waitFor();
    expect(await form.getByText(REQUIRED).count()).toBeGreaterThanOrEqual(7);
    await form.getByText('Valitse tuote').first().waitFor();
    await expectNoSeriousViolations(page);

    // The product select filters from three characters; Enter picks the highlighted one.
    const titles = await page.evaluate(() =>
      fetch('/api/search/all-products?language=fi')
        .then((r) => r.json())
        .then((list: { title: string }[]) => list.map((p) => p.title)),
    );
    const word = (titles[0] ?? '').split(' ')[0] ?? '';
    const query = word.slice(0, 4).toUpperCase();
    const product = form.getByRole('combobox', { name: 'Tuote' });
    // The empty field opens on the arrow key to the whole list, to browse.
    await pressOn(page, product, 'ArrowDown');
    await expect.poll(() => form.getByRole('option').count()).toBe(Math.min(titles.length, 100));
    await page.keyboard.press('Escape');
    // Two characters are too few to filter by: no list, only the hint that asks for three.
    await typeInto(page, product, query.slice(0, 2));
    await expect.poll(() => product.inputValue()).toBe(query.slice(0, 2));
    expect(await product.getAttribute('aria-expanded')).toBe('false');
    expect(await form.getByRole('option').count()).toBe(0);
    const hint = form.locator(`[id="${await product.getAttribute('id')}-hint"]`);
    expect(await hint.textContent()).toBe('Kirjoita vähintään 3 merkkiä');
    await expectNoSeriousViolations(page);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await product.evaluate((e) => e.scrollIntoView({ block: 'center' }));
      await shot(page, `product-two-characters-${width}`);
    }
    await page.setViewportSize({ width: 1100, height: 900 });
    await page.keyboard.type(query.slice(2));
    // The list has been filtered: every option left has the typed text.
    const options = form.getByRole('option');
    await expect
      .poll(async () => {
        const shown = await options.allTextContents();
        const lower = query.toLowerCase();
        return shown.length > 0 && shown.every((title) => title.toLowerCase().includes(lower));
      })
      .toBe(true);
    const filtered = await options.allTextContents();
    expect(filtered.length).toBeLessThan(titles.length);
    expect(filtered.every((title) => title.toLowerCase().includes(query.toLowerCase()))).toBe(true);
    await expectNoSeriousViolations(page);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await product.evaluate((e) => e.scrollIntoView({ block: 'center' }));
      await shot(page, `product-filtered-${width}`);
    }
    await page.setViewportSize({ width: 1100, height: 900 });
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await product.inputValue()).toBe(filtered[0]);

    const message = label(form, 'Viesti');
    await typeInto(page, message, 'Paketissa oli <muovia> & {roskaa}');
    await form.getByText('Lomakkeella ei ole mahdollista käyttää erikoismerkkejä.').waitFor();
    await form.getByRole('link', { name: 'Poista viestistä erikoismerkit' }).waitFor();
    await typeInto(page, message, 'Paketissa oli muovinpala (noin 2 cm).');
    await form.getByText('1963/2000 merkkiä jäljellä').waitFor();

    // The date picker: segments pp/kk/vvvv typed by keyboard; a date left half-typed is refused
    // with the format message, tied to the segments.
    const expiry = form.getByRole('group', { name: 'Parasta ennen- tai viimeinen käyttöpäivä' });
    expect(await dateText(expiry)).toBe('pp/kk/vvvv');
    const day = expiry.getByRole('spinbutton', { name: /^päivä/ });
    await day.focus();
    await page.keyboard.type('3105');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const dateError = form.getByText('Anna päivämäärä muodossa pp/kk/vvvv');
    await dateError.waitFor();
    const errorId = await dateError.getAttribute('id');
    expect(errorId).toBeTruthy();
    expect((await day.getAttribute('aria-describedby'))?.split(' ')).toContain(errorId);
    expect(await day.getAttribute('aria-invalid')).toBe('true');
    await expiry.getByRole('spinbutton', { name: /^vuosi/ }).focus();
    await page.keyboard.type('2026');
    await dateError.waitFor({ state: 'detached' });
    expect(await dateText(expiry)).toBe('31/05/2026');
    await fillPerson(page, form, {
      Ostopaikka: 'K-Market Kallio',
      Eränumero: 'L1234',
      Etunimi: 'Maija',
      Sukunimi: 'Meikäläinen',
      Katuosoite: 'Kauppakatu 1',
      Postinumero: '00100',
      Postitoimipaikka: 'Helsinki',
    });
    await pressOn(page, form.getByRole('radio', { name: 'Sähköpostitse' }), 'Space');
    await submit(page, form);
    await form.getByText(REQUIRED).first().waitFor();
    await typeInto(page, label(form, 'Sähköpostiosoite'), 'maija@example');
    await form.getByText('Tarkista sähköpostiosoite').waitFor();
    await typeInto(page, label(form, 'Sähköpostiosoite'), 'maija@example.fi');
    // Choosing phone clears email: one method only.
    await pressOn(page, form.getByRole('radio', { name: 'Puhelimitse' }), 'Space');
    expect(await form.getByRole('radio', { name: 'Sähköpostitse' }).isChecked()).toBe(false);
    await pressOn(page, form.getByRole('radio', { name: 'Sähköpostitse' }), 'Space');

    const files = form.locator('input[type="file"]');
    const tooBig = Buffer.alloc(15 * 1024 * 1024 + 10);
    png.copy(tooBig);
    await files.setInputFiles({ name: 'iso.png', mimeType: 'image/png', buffer: tooBig });
    await form.getByText('Tiedosto liian suuri (> 15MB)').waitFor();
    const image = (name: string) => ({ name, mimeType: 'image/png', buffer: png });
    await files.setInputFiles([image('1.png'), image('2.png'), image('3.png'), image('4.png')]);
    await form.getByText('Cannot add more files').waitFor();
    await files.setInputFiles([
      image('kuva.png'),
      { name: 'kuva.jpg', mimeType: 'image/jpeg', buffer: jpeg },
    ]);
    await form.getByText('kuva.jpg', { exact: true }).waitFor();

    const started = Date.now();
    await submit(page, form);
    const dialog = page.getByRole('dialog', { name: 'Huomio' });
    await dialog.waitFor();
    await expectNoSeriousViolations(page);
    await pressOn(page, dialog.getByRole('button', { name: 'Palaa takaisin' }), 'Enter');
    await dialog.waitFor({ state: 'hidden' });
    await submit(page, form);
    await expectThankYouPage(page, 'sibylla', '/ota-yhteytta/kiitos', 'thank-you');
    expect(await eventsSent(page)).toContainEqual({ event: 'reklamaatio_form_submit' });
    const stored = await storedSubmission('complaint', started);
    expect(stored.siteId).toBe('sibylla');
    expect(stored.data).toMatchObject({
      ProductName: filtered[0],
      Message: 'Paketissa oli muovinpala (noin 2 cm).',
      ExpirationDate: '2026-05-31',
      PlaceOfPurchase: 'K-Market Kallio',
      BatchNumber: 'L1234',
      Firstname: 'Maija',
      Lastname: 'Meikäläinen',
      StreetAddress: 'Kauppakatu 1',
      PostalCode: '00100',
      City: 'Helsinki',
      Email: 'maija@example.fi',
      ContactByEmail: true,
      ContactByPhone: false,
      NoContact: false,
      HealthDataProcessingConsent: false,
    });
    expect(stored.data.ProductId).toBeGreaterThan(0);
    expect(stored.files).toEqual([
      storedFile(0, 'kuva.png', 'image/png', png),
      storedFile(1, 'kuva.jpg', 'image/jpeg', jpeg),
    ]);
    expect(problems.console).toEqual([]);
    await page.close();
  });

  it('sends feedback without a product', async () => {
    const { page, island } = await open('sibylla', '/ota-yhteytta', 'form-retail-contact');
    await pressOn(page, island.getByRole('radio', { name: 'MUU ASIA' }), 'Space');
    const form = island.locator('form');
    await waitForCaptcha(form);
    await submit(page, form);
    await form
      .getByRole('alert')
      .filter({ hasText: 'Lomakkeelta puuttuu pakollisia tietoja' })
      .waitFor();
    await typeInto(page, label(form, 'Viesti'), 'Kiitos hyvästä makkarasta!');
    await fillPerson(page, form, {
      Etunimi: 'Matti',
      Sukunimi: 'Meikäläinen',
      Katuosoite: 'Kauppakatu 2',
      Postinumero: '00100',
      Postitoimipaikka: 'Helsinki',
    });
    await pressOn(page, form.getByRole('radio', { name: 'En halua yhteydenottoa' }), 'Space');
    await pressOn(page, label(form, 'Annan suostumukseni terveystietojeni käsittelyyn'), 'Space');
    const started = Date.now();
    await submit(page, form);
    await expectThankYouPage(page, 'sibylla', '/ota-yhteytta/kiitos');
    expect(await eventsSent(page)).toContainEqual({ event: 'palaute_form_submit' });
    const stored = await storedSubmission('feedback', started);
    expect(stored.data).toMatchObject({
      Message: 'Kiitos hyvästä makkarasta!',
      ProductId: 0,
      ProductName: '',
      Firstname: 'Matti',
      Lastname: 'Meikäläinen',
      StreetAddress: 'Kauppakatu 2',
      PostalCode: '00100',
      City: 'Helsinki',
      ContactByEmail: false,
      ContactByPhone: false,
      NoContact: true,
      HealthDataProcessingConsent: true,
    });
    expect(stored.files).toEqual([]);
    await page.close();
  });
});

describe('the other forms', () => {
  it('sponsorship: subject, group, PDF only', async () => {
    const { page, island } = await open('jyvabroiler', '/ota-yhteytta', 'form-sponsorship');
    await submit(page, island);
    await island
      .getByRole('alert')
      .filter({ hasText: 'Lomakkeelta puuttuu pakollisia tietoja' })
      .waitFor();
    expect(await island.getByText(REQUIRED).count()).toBeGreaterThanOrEqual(6);
    await expectNoSeriousViolations(page);
    await pressOn(page, island.getByRole('radio', { name: 'Lasten ja nuorten urheilu' }), 'Space');
    // The event date from the calendar, by keyboard: open it from its button (Escape closes it),
    // a month on with PageDown, Enter picks the day. The calendar speaks Finnish. Looked at
    // closed and open at 1280 and 375 px.
    const eventDate = island.getByRole('group', { name: 'Tapahtuman päivämäärä' });
    expect(await dateText(eventDate)).toBe('pp/kk/vvvv');
    const calendarButton = eventDate.getByRole('button', { name: /^Kalenteri/ });
    const calendar = page.getByRole('dialog', { name: /Tapahtuman päivämäärä/ });
    const today = await page.evaluate(() => {
      const d = new Date();
      return [d.getFullYear(), d.getMonth() + 1, d.getDate()] as const;
    });
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await eventDate.evaluate((e) => e.scrollIntoView({ block: 'center' }));
      await shot(page, `date-closed-${width}`);
      await pressOn(page, calendarButton, 'Enter');
      await calendar.getByRole('grid').waitFor();
      await shot(page, `date-open-${width}`);
      if (width === 375) break;
      expect((await calendar.getByRole('heading').textContent()) ?? '').toMatch(FINNISH_MONTHS);
      expect(await page.locator(':focus').textContent()).toBe(String(today[2]));
      await expectNoSeriousViolations(page);
      await page.keyboard.press('Escape');
      await calendar.waitFor({ state: 'hidden' });
      expect(await calendarButton.evaluate((b) => b === document.activeElement)).toBe(true);
      expect(await dateText(eventDate)).toBe('pp/kk/vvvv');
    }
    await page.keyboard.press('PageDown');
    await page.keyboard.press('Enter');
    await calendar.waitFor({ state: 'hidden' });
    const chosen = new CalendarDate(...today).add({ months: 1 });
    const dd = String(chosen.day).padStart(2, '0');
    const mm = String(chosen.month).padStart(2, '0');
    expect(await dateText(eventDate)).toBe(`${dd}/${mm}/${chosen.year}`);
    await page.setViewportSize({ width: 1100, height: 900 });
    await fillPerson(page, island, {
      'Ryhmän tai seuran nimi': 'FC Pallo P12',
      'Mihin tukea haetaan?': 'Turnausmatka Ouluun.',
      Etunimi: 'Pekka',
      Sukunimi: 'Pelaaja',
      Sähköpostiosoite: 'pekka@example.fi',
      Puhelinnumero: '0501234567',
    });
    const files = island.locator('input[type="file"]');
    await files.setInputFiles({ name: 'kuva.png', mimeType: 'image/png', buffer: png });
    await island.getByText('Tiedostotyyppi ei ole sallittu').waitFor();
    const pdf = Buffer.from(
      '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
    );
    await files.setInputFiles({ name: 'hakemus.pdf', mimeType: 'application/pdf', buffer: pdf });
    const started = Date.now();
    await submit(page, island);
    await island.getByText('Kiitos viestistäsi!').waitFor();
    const stored = await storedSubmission('sponsorship', started);
    expect(stored.siteId).toBe('jyvabroiler');
    expect(stored.data).toEqual({
      Subject: 'youth-sports',
      Groupname: 'FC Pallo P12',
      EventDate: chosen.toString(),
      Message: 'Turnausmatka Ouluun.',
      Firstname: 'Pekka',
      Lastname: 'Pelaaja',
      Email: 'pekka@example.fi',
      Phone: '0501234567',
    });
    expect(stored.files).toEqual([storedFile(0, 'hakemus.pdf', 'application/pdf', pdf)]);
    await page.close();
  });

  it('the date field takes dd/MM/yyyy before the island hydrates', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${origin('jyvabroiler')}/ota-yhteytta`);
    const field = page.getByRole('textbox', { name: 'Tapahtuman päivämäärä' });
    expect(await field.getAttribute('placeholder')).toBe('pp/kk/vvvv');
    await field.focus();
    await page.keyboard.type('15/08/2026');
    expect(await field.inputValue()).toBe('15/08/2026');
    await context.close();
  });

  it('question: replaced by its success text', async () => {
    const { page, island } = await open('konsernifi', '/ota-yhteytta', 'form-question');
    await submit(page, island);
    await island.getByText(REQUIRED).waitFor();
    await typeInto(page, label(island, 'Viesti'), 'Onko <tuote> gluteeniton?');
    await island.getByText('Viestissä ei ole mahdollista käyttää erikoismerkkejä.').waitFor();
    await expectNoSeriousViolations(page);
    await typeInto(page, label(island, 'Viesti'), 'Onko tuote gluteeniton?');
    const started = Date.now();
    await submit(page, island);
    await island.getByText('Kiitos kysymyksestäsi!', { exact: false }).waitFor();
    expect(await island.locator('form').count()).toBe(0);
    const stored = await storedSubmission('question', started);
    expect(stored.siteId).toBe('konsernifi');
    expect(stored.data).toEqual({ Message: 'Onko tuote gluteeniton?' });
    expect(stored.files).toEqual([]);
    await page.close();
  });

  it('promotional photo: the raffle rules must be accepted', async () => {
    const { page, island } = await open('sibylla', '/ota-yhteytta', 'form-promotional-photo');
    await fillPerson(page, island, {
      Etunimi: 'Kalle',
      Sukunimi: 'Kuvaaja',
      Sähköpostiosoite: 'kalle@example.fi',
      Puhelinnumero: '0451234567',
    });
    await submit(page, island);
    const rules = label(island, 'Hyväksyn arvonnan säännöt');
    expect(await rules.getAttribute('aria-invalid')).toBe('true');
    await island.getByText(REQUIRED).waitFor();
    await expectNoSeriousViolations(page);
    await pressOn(page, rules, 'Space');
    await pressOn(page, island.getByRole('radio', { name: 'Puhelin' }), 'Space');
    // A slow phone: the photo is still being read when the visitor sends; the form waits for it.
    await page.evaluate(() => {
      const read = FileReader.prototype.readAsDataURL;
      FileReader.prototype.readAsDataURL = function (this: FileReader, blob: Blob) {
        setTimeout(() => read.call(this, blob), 1500);
      };
    });
    await island
      .locator('input[type="file"]')
      .setInputFiles({ name: 'grilli.jpg', mimeType: 'image/jpeg', buffer: jpeg });
    const started = Date.now();
    await submit(page, island);
    await island.getByText('Kiitos viestistäsi!').waitFor();
    expect(await page.evaluate(() => window.dataLayer)).toContainEqual({
      event: 'promotional_photo_form_submit',
    });
    const stored = await storedSubmission('promotional-photo', started);
    expect(stored.data).toEqual({
      FirstName: 'Kalle',
      LastName: 'Kuvaaja',
      Email: 'kalle@example.fi',
      Phone: '0451234567',
      MethodOfContact: 'phone',
    });
    expect(stored.files).toEqual([storedFile(0, 'grilli.jpg', 'image/jpeg', jpeg)]);
    await page.close();
  });

  it('brand contact form (mfcontact): each missing field is flagged', async () => {
    const { page, island } = await open('mestariforsmanfi', '/ota-yhteytta', 'form-brand-contact');
    const link = island.getByRole('link', { name: /Tietosuojaseloste/ });
    expect(await link.getAttribute('target')).toBe('_blank');
    await submit(page, island);
    await island
      .getByRole('alert')
      .filter({ hasText: 'Lomakkeelta puuttuu pakollisia tietoja' })
      .waitFor();
    expect(await island.getByText(REQUIRED).count()).toBe(5);
    await expectNoSeriousViolations(page);
    await fillPerson(page, island, {
      Etunimi: 'Anna',
      Sukunimi: 'Asiakas',
      Sähköpostiosoite: 'anna@example.fi',
      Puhelinnumero: '0409876543',
      Viesti: 'Kiitos hyvistä tuotteista.',
    });
    await island
      .locator('input[type="file"]')
      .setInputFiles({ name: 'kuva.png', mimeType: 'image/png', buffer: png });
    const started = Date.now();
    await submit(page, island);
    await island.getByText('Kiitos viestistäsi!').waitFor();
    const stored = await storedSubmission('brand-contact', started);
    expect(stored.siteId).toBe('mestariforsmanfi');
    expect(stored.data).toEqual({
      FirstName: 'Anna',
      LastName: 'Asiakas',
      Email: 'anna@example.fi',
      Phone: '0409876543',
      Message: 'Kiitos hyvistä tuotteista.',
      StreetAddress: '',
      PostalCode: '',
      City: '',
    });
    expect(stored.files).toEqual([storedFile(0, 'kuva.png', 'image/png', png)]);
    await page.close();
  });

  it('expert question: closable, its own summary and character rule', async () => {
    const { page, island } = await open('ammattilaiset', '/ota-yhteytta', 'form-expert-question');
    await pressOn(page, island.getByRole('button', { name: 'Sulje' }), 'Enter');
    await pressOn(page, island.getByRole('button', { name: 'Kysy asiantuntijalta' }), 'Enter');
    await waitForCaptcha(island);
    await submit(page, island);
    const summary = island.getByRole('alert', { name: 'Tapahtui virhe' });
    await summary.getByText('Lomakkeessa on virheitä').waitFor();
    expect(await summary.getByRole('link').allTextContents()).toEqual([
      'Nimesi',
      'Sähköpostiosoitteesi',
      'Viesti',
    ]);
    await expectNoSeriousViolations(page);
    await fillPerson(page, island, {
      Nimesi: 'Keittiömestari Kokki',
      Yritys: 'Ravintola Oy',
      Sähköpostiosoitteesi: 'kokki@example.fi',
      Viesti: 'Broileri #1?',
    });
    await island.getByText('Erikoismerkit eivät ole sallittuja').waitFor();
    await typeInto(page, label(island, 'Viesti'), 'Miten broileri kypsennetään?');
    const started = Date.now();
    await submit(page, island);
    await expectThankYouPage(page, 'ammattilaiset', '/ota-yhteytta/kiitos');
    const stored = await storedSubmission('expert-question', started);
    expect(stored.siteId).toBe('ammattilaiset');
    expect(stored.data).toEqual({
      Subject: 'Kysymys asiantuntijalle',
      FullName: 'Keittiömestari Kokki',
      Company: 'Ravintola Oy',
      Email: 'kokki@example.fi',
      Phone: '',
      CustomerId: '',
      Message: 'Miten broileri kypsennetään?',
    });
    expect(stored.files).toEqual([]);
    await page.close();
  });

  it('export contact form: English texts and its own success message', async () => {
    const { page, island } = await open('export', '/contact', 'form-export-contact');
    await submit(page, island, 'Send');
    await island
      .getByRole('alert')
      .filter({ hasText: 'Please check the following fields and send again.' })
      .waitFor();
    expect(await island.getByText('This field is required').count()).toBe(5);
    await expectNoSeriousViolations(page);
    await fillPerson(page, island, {
      'Full name': 'Jane Buyer',
      Company: 'Importers Ltd',
      Email: 'jane@example.com',
      Phone: '+44 20 1234 5678',
      Message: 'Price list, please!',
    });
    await island.getByText('981/1000 characters remaining').waitFor();
    const started = Date.now();
    await submit(page, island, 'Send');
    await island.getByText('Thank you! We will contact you soon.').waitFor();
    const stored = await storedSubmission('export-contact', started);
    expect(stored.siteId).toBe('export');
    // The content id of the page the form is on: the contact page, as site search finds it.
    const found = (await page.evaluate(() =>
      fetch('/api/search/content/?q=contact&language=en&pageSize=50').then((r) => r.json()),
    )) as { hits: { url: string; contentId: number | string }[] };
    const contact = found.hits.find((hit) => hit.url === '/contact');
    expect(contact).toBeDefined();
    expect(stored.data).toMatchObject({
      Subject: 'Export contact request',
      FullName: 'Jane Buyer',
      Company: 'Importers Ltd',
      Email: 'jane@example.com',
      Phone: '+44 20 1234 5678',
      Message: 'Price list, please!',
      ContentId: `page-${String(contact?.contentId).replace(/^page-/, '')}`,
    });
    expect(stored.files).toEqual([]);
    await page.close();
  });

  it('sales form: email or phone by the contact request, status 200 is success', async () => {
    const { page, island } = await open('ammattilaiset', '/myynti', 'form-sales');
    // The page says its intro once, as the lead under the heading.
    const lead = (await page.locator('main header p').textContent()) ?? '';
    expect(lead).toBe('Ota yhteyttä myyntiimme.');
    expect(await page.locator('main').getByText(lead, { exact: true }).count()).toBe(1);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await shot(page, `sales-page-${width}`);
    }
    await page.setViewportSize({ width: 1100, height: 900 });
    await submit(page, island);
    expect(await island.getByText(REQUIRED).count()).toBe(4);
    await expectNoSeriousViolations(page);
    await fillPerson(page, island, {
      Etunimi: 'Sanna',
      Sukunimi: 'Suurkeittiö',
      Viesti: 'Pyydämme yhteydenottoa.',
      Sähköpostiosoite: 'sanna@example',
    });
    await island.getByText('Sähköpostiosoite on virheellinen').waitFor();
    await pressOn(page, island.getByRole('radio', { name: 'Puhelimitse' }), 'Space');
    await typeInto(page, label(island, 'Sähköpostiosoite'), '');
    await typeInto(page, label(island, 'Puhelinnumero'), '0401234567');
    const started = Date.now();
    await submit(page, island);
    await expectThankYouPage(page, 'ammattilaiset', '/ota-yhteytta/kiitos');
    const stored = await storedSubmission('sales', started);
    expect(stored.siteId).toBe('ammattilaiset');
    expect(stored.data).toEqual({
      firstName: 'Sanna',
      lastName: 'Suurkeittiö',
      email: '',
      phone: '0401234567',
      organization: '',
      product: { productId: 0, title: '' },
      message: 'Pyydämme yhteydenottoa.',
      customerNumber: '',
      formType: 'Feedback',
      contactRequest: 'Phone',
    });
    expect(stored.files).toEqual([]);
    expect(await eventsSent(page)).toContainEqual({
      event: 'contact_request_form_submit',
      formName: 'kontaktipyynto',
    });
    await page.close();
  });

  it('school material order: at least one material', async () => {
    const { page, island } = await open(
      'konsernifi',
      '/tyopaikat/koulumateriaalit',
      'form-school-material',
    );
    await island.getByRole('checkbox').first().waitFor();
    await submit(page, island);
    await island.getByText('Valitse materiaalit').first().waitFor();
    expect(await island.getByText(REQUIRED).count()).toBe(3);
    await expectNoSeriousViolations(page);
    await fillPerson(page, island, {
      Etunimi: 'Olli',
      Sukunimi: 'Opettaja',
      Sähköpostiosoite: 'olli@example.fi',
    });
    const material = (await island.getByRole('checkbox').first().getAttribute('value')) ?? '';
    await pressOn(page, island.getByRole('checkbox').first(), 'Space');
    const started = Date.now();
    await submit(page, island);
    await island.getByText('Kiitos tilauksestasi!', { exact: false }).waitFor();
    const stored = await storedSubmission('school-material', started);
    expect(stored.siteId).toBe('konsernifi');
    expect(stored.data).toMatchObject({
      FirstName: 'Olli',
      LastName: 'Opettaja',
      School: '',
      Region: '',
      Email: 'olli@example.fi',
      Materials: [material],
      Message: '',
      Subject: 'Koulumateriaalitilaus',
    });
    expect((stored.data.Links as string[])[0]).toMatch(/^(\/|https?:)/);
    expect(stored.data.Links).toHaveLength(1);
    expect(stored.files).toEqual([]);
    await page.close();
  });
});
