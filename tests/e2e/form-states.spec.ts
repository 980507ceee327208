import type { Browser, BrowserContext, Locator, Page, Request, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverT } from '../../src/i18n/catalogues.ts';
import {
  chromiumForFile,
  screenshots,
  seriousViolations,
  serverPort,
  watchProblems,
} from './browser.ts';

/**
 * What a form says before it sends, at 1280 and 375 px, on sibylla's contact page (the retail
 * contact form and the photo raffle): nothing is sent without a captcha token (spec forms §4),
 * but a submit still checks the fields, and when only the captcha is unfinished a polite status
 * in the captcha's group says so (WCAG 3.3.1, 4.1.3); the note explaining the star of required
 * fields; and both forms of the English page hydrating without a mismatch (React error #418),
 * whichever of them loads first.
 */

const port = serverPort();
const origin = `http://sibylla.localhost:${port}`;
const t = serverT('fi');
const CHALLENGE = '**/api/captcha/challenge';
const PHOTO_PATH = '/api/contact/promotionalphoto';

let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});

interface Opened {
  context: BrowserContext;
  page: Page;
  island: Locator;
  problems: ReturnType<typeof watchProblems>;
  /** Form posts of the photo raffle the page sent. */
  posts: Request[];
  /** Lets the held captcha challenge through (when `captcha` is 'held'). */
  release: () => void;
}

async function open(
  width: number,
  captcha: 'held' | 'failing' | 'free',
  pagePath = '/ota-yhteytta',
): Promise<Opened> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const problems = watchProblems(page);
  const posts: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes(PHOTO_PATH)) posts.push(request);
  });
  let release = () => {};
  if (captcha === 'held') {
    const held: Route[] = [];
    let open = false;
    release = () => {
      open = true;
      for (const route of held.splice(0)) void route.continue();
    };
    await page.route(CHALLENGE, (route) => {
      if (open) return route.continue();
      held.push(route);
    });
  } else if (captcha === 'failing') {
    await page.route(CHALLENGE, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }),
    );
  }
  await page.goto(`${origin}${pagePath}`);
  const island = page.locator('k-island[data-name="form-promotional-photo"]');
  await page.locator('k-island[data-name="form-promotional-photo"][data-hydrated]').waitFor();
  return { context, page, island, problems, posts, release };
}

/** A field by its label; a required field's label ends with its star. */
const field = (scope: Locator, text: string) => scope.getByLabel(new RegExp(`^${text}\\s*\\*?$`));

async function fillValid(page: Page, island: Locator) {
  for (const [label, value] of [
    ['Etunimi', 'Kalle'],
    ['Sukunimi', 'Kuvaaja'],
    ['Sähköpostiosoite', 'kalle@example.fi'],
    ['Puhelinnumero', '0451234567'],
  ] as const) {
    await field(island, label).fill(value);
  }
  await field(island, 'Hyväksyn arvonnan säännöt').focus();
  await page.keyboard.press('Space');
}

async function submit(page: Page, island: Locator) {
  await island.getByRole('button', { name: t('form.submit'), exact: true }).focus();
  await page.keyboard.press('Enter');
}

/** The captcha's group (named by its legend) and the status message tied to it. */
function captchaOf(island: Locator) {
  const group = island.getByRole('group', { name: t('form.captcha.label') });
  return { group, status: group.getByRole('status') };
}

const shot = screenshots('form-states');

describe.each([1280, 375])('a form and its captcha at %i px', (width) => {
  it('explains the star of required fields under the heading', async () => {
    const { context, island, problems } = await open(width, 'free');
    const heading = island.getByRole('heading', { name: t('form.promotional-photo.title') });
    const note = island.getByText(t('form.requiredMark'), { exact: true });
    expect(await note.isVisible()).toBe(true);
    const [h, n, first] = await Promise.all([
      heading.boundingBox(),
      note.boundingBox(),
      field(island, 'Etunimi').boundingBox(),
    ]);
    expect(n?.y).toBeGreaterThan(h?.y ?? Number.POSITIVE_INFINITY);
    expect(n?.y).toBeLessThan(first?.y ?? 0);
    // The star is not read out; the field says it is required.
    const stars = island.locator('label span, legend span').filter({ hasText: /^\s*\*$/ });
    expect(await stars.count()).toBeGreaterThan(0);
    for (const star of await stars.all())
      expect(await star.getAttribute('aria-hidden')).toBe('true');
    expect(await field(island, 'Etunimi').getAttribute('aria-required')).toBe('true');
    expect(await island.getByRole('radio', { name: 'Sähköposti' }).getAttribute('required')).toBe(
      '',
    );
    expect(problems.console).toEqual([]);
    await context.close();
  });

  it('with valid fields and the captcha still running, says so politely and sends nothing; sends once it is done', async () => {
    const { context, page, island, posts, problems, release } = await open(width, 'held');
    const { group, status } = captchaOf(island);
    await fillValid(page, island);
    await submit(page, island);
    await expect.poll(() => status.textContent()).toBe(t('form.captcha.pending'));
    expect(await group.getAttribute('aria-describedby')).toBe(await status.getAttribute('id'));
    expect(await status.isVisible()).toBe(true);
    // The fields are fine: no field error, no summary.
    expect(await island.getByText(t('validation.required')).count()).toBe(0);
    expect(await island.getByRole('alert').count()).toBe(0);
    expect(posts).toHaveLength(0);
    expect(await seriousViolations(page)).toEqual([]);
    await status.scrollIntoViewIfNeeded();
    await shot(page, `${width}-captcha-pending`);

    // The challenge arrives and is solved: the status says the form can now be sent.
    release();
    await island.locator('altcha-widget .altcha[data-state="verified"]').waitFor({
      timeout: 30_000,
    });
    await expect.poll(() => status.textContent()).toBe(t('form.captcha.ready'));
    expect(posts).toHaveLength(0);
    await island
      .locator('input[type="file"]')
      .setInputFiles({ name: 'kuva.png', mimeType: 'image/png', buffer: PNG });
    await submit(page, island);
    await island.getByText(t('form.success')).waitFor();
    expect(posts).toHaveLength(1);
    // The spec's payload: the rules box is checked in the form, not sent.
    const body = posts[0]?.postDataJSON() as { Data: Record<string, unknown> };
    expect(Object.keys(body.Data).sort()).toEqual([
      'Email',
      'FirstName',
      'LastName',
      'MethodOfContact',
      'Phone',
    ]);
    expect(problems.console).toEqual([]);
    await context.close();
  });

  it('without a token, invalid fields still show their errors (and nothing is sent)', async () => {
    const { context, page, island, posts, problems } = await open(width, 'held');
    const { status } = captchaOf(island);
    await submit(page, island);
    await island
      .getByRole('alert')
      .filter({ hasText: t('form.summary.default') })
      .waitFor();
    // First name, last name, e-mail, phone and the rules box.
    expect(await island.getByText(t('validation.required')).count()).toBe(5);
    expect(await field(island, 'Etunimi').getAttribute('aria-invalid')).toBe('true');
    // The fields come first: the captcha's status says nothing yet.
    expect(await status.textContent()).toBe('');
    expect(posts).toHaveLength(0);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, `${width}-fields-invalid`);

    // Fixed fields, captcha still running: now the status speaks.
    await fillValid(page, island);
    await submit(page, island);
    await expect.poll(() => status.textContent()).toBe(t('form.captcha.pending'));
    expect(await island.getByText(t('validation.required')).count()).toBe(0);
    expect(posts).toHaveLength(0);
    expect(problems.console).toEqual([]);
    await context.close();
  });

  it('with a failed captcha, asks for it to be done', async () => {
    const { context, page, island, posts } = await open(width, 'failing');
    await island.locator('altcha-widget .altcha[data-state="error"]').waitFor();
    const { status } = captchaOf(island);
    await fillValid(page, island);
    await submit(page, island);
    await expect.poll(() => status.textContent()).toBe(t('form.captcha.missing'));
    expect(posts).toHaveLength(0);
    expect(await seriousViolations(page)).toEqual([]);
    await status.scrollIntoViewIfNeeded();
    await shot(page, `${width}-captcha-missing`);
    await context.close();
  });

  // Hydration does not depend on the width: at 1280 px only (decision 155).
  if (width === 1280) {
    it.each(['retail-forms', 'promotional-photo-form'])(
      "both forms of /en/contact hydrate without a mismatch when %s's code comes late",
      async (late) => {
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        const page = await context.newPage();
        const problems = watchProblems(page);
        // The late form's code is held until the other form has hydrated without it.
        const other = late === 'retail-forms' ? 'form-promotional-photo' : 'form-retail-contact';
        await page.route(`**/assets/${late}-*.js`, async (route) => {
          await page
            .locator(`k-island[data-name="${other}"][data-hydrated]`)
            .waitFor({ state: 'attached' });
          await route.continue();
        });
        await page.goto(`${origin}/en/contact`);
        for (const name of ['form-retail-contact', 'form-promotional-photo']) {
          await page.locator(`k-island[data-name="${name}"][data-hydrated]`).waitFor();
        }
        await page.locator('altcha-widget .altcha[data-state="verified"]').nth(1).waitFor({
          timeout: 30_000,
        });
        expect(problems.console).toEqual([]);
        await context.close();
      },
    );
  }
});

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
