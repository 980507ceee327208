import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverT } from '../../src/i18n/catalogues.ts';
import {
  chromiumForFile,
  hydrated,
  isFocused,
  newPage,
  screenshots,
  scrollIslandIntoView,
  seriousViolations,
  settled,
  siteOrigin,
  watchProblems,
} from './browser.ts';

/**
 * The marketing widgets (spec shop-and-widgets §2, §4, §5; decision 038) at 1280 and 375 px: the
 * newsletter modal (hash and button), the news-release modal on the corporate newsroom, the
 * campaign block, and the floating overlay of the food-service sites. Each dialog traps the
 * focus, closes with Escape and gives the focus back; axe finds nothing serious in any state.
 */

const t = serverT('fi');
const shot = screenshots('subscriptions');
let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});

let counter = 0;
const address = () => `e2e.${Date.now()}.${++counter}@example.fi`;

async function noSeriousViolations(page: Page, state: string) {
  const violations = await seriousViolations(page);
  expect(violations, state).toEqual([]);
}

const dialogOf = (page: Page) => page.getByRole('dialog');

async function focusIsIn(target: Locator): Promise<boolean> {
  return target.evaluate((el) => el.contains(document.activeElement));
}

/** Tab and Shift+Tab a good many times: the focus never leaves the dialog. */
async function expectTrapped(page: Page) {
  const dialog = dialogOf(page);
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    await expect.poll(() => focusIsIn(dialog)).toBe(true);
  }
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Shift+Tab');
    await expect.poll(() => focusIsIn(dialog)).toBe(true);
  }
}

/** Three page loads, so the history has more than 2 entries (spec §4), the last with the hash. */
async function arriveWithHash(page: Page, origin: string, path: string, hash: string) {
  await page.goto(`${origin}${path}?visit=1`);
  await page.goto(`${origin}${path}?visit=2`);
  await page.goto(`${origin}${path}?visit=3#${hash}`);
}

for (const width of [1280, 375]) {
  describe(`at ${width} px`, () => {
    // When a hash opens the newsletter modal and that it stays dismissed do not depend on the
    // width: checked at 1280 px; at 375 px the modal's states, with axe (decision 155).
    const wide = width === 1280;
    it(
      wide
        ? 'newsletter modal: hash, validation, thank-you, Escape, stays dismissed, button'
        : 'newsletter modal: hash, validation, thank-you, Escape, button',
      async () => {
        const { context, page } = await newPage(browser, width);
        const problems = watchProblems(page);
        const origin = siteOrigin('ammattilaiset');

        if (wide) {
          // Landing straight on the hash (history of 1): not opened (decision 038).
          await page.goto(`${origin}/#newsletter`);
          await hydrated(page, 'newsletter-modal');
          expect(await dialogOf(page).count()).toBe(0);
        }

        await arriveWithHash(page, origin, '/', 'newsletter');
        await hydrated(page, 'newsletter-modal');
        const dialog = dialogOf(page);
        await dialog.waitFor();
        await expect
          .poll(() =>
            dialog.getByRole('heading', { name: t('subscribe.newsletter.title') }).count(),
          )
          .toBe(1);
        await expect.poll(() => focusIsIn(dialog)).toBe(true);
        // The page behind is inert and does not scroll.
        expect(
          await page.evaluate(() =>
            Boolean(document.querySelector('main')?.closest('[inert], [aria-hidden="true"]')),
          ),
        ).toBe(true);
        await noSeriousViolations(page, 'newsletter open');
        await shot(page, `newsletter-open-${width}`);

        // Empty, then invalid: 'Syötä sähköpostiosoite.'
        await dialog.getByRole('button', { name: t('subscribe.newsletter.submit') }).click();
        await expect
          .poll(() => dialog.getByText(t('subscribe.error.email')).first().isVisible())
          .toBe(true);
        const email = dialog.getByLabel(t('subscribe.field.email'));
        expect(await isFocused(email)).toBe(true);
        await email.fill('ei-osoite');
        await dialog.getByRole('button', { name: t('subscribe.newsletter.submit') }).click();
        await expect
          .poll(() => dialog.getByText(t('subscribe.error.email')).first().isVisible())
          .toBe(true);
        expect(await email.inputValue()).toBe('ei-osoite');
        await noSeriousViolations(page, 'newsletter invalid');
        await shot(page, `newsletter-invalid-${width}`);
        await expectTrapped(page);

        await email.fill(address());
        await dialog.getByRole('button', { name: t('subscribe.newsletter.submit') }).click();
        await dialog.getByText(t('subscribe.newsletter.thanks')).waitFor();
        const events = await page.evaluate(() =>
          (window.dataLayer ?? []).filter((e) => e.event === 'fs_newsletter_form_submit'),
        );
        expect(events).toEqual([{ event: 'fs_newsletter_form_submit', formName: 'uutiskirje' }]);
        await noSeriousViolations(page, 'newsletter thanks');
        await shot(page, `newsletter-thanks-${width}`);

        // Escape closes; opened by the hash, the focus goes to the modal's button.
        await page.keyboard.press('Escape');
        await expect.poll(() => dialogOf(page).count()).toBe(0);
        const open = page.getByRole('button', { name: t('subscribe.newsletter.open') });
        await expect.poll(() => isFocused(open)).toBe(true);

        if (wide) {
          // Dismissed: neither a reload nor the hash again opens it.
          await page.goto(`${origin}/?visit=4#newsletter`);
          await hydrated(page, 'newsletter-modal');
          await page.reload();
          await hydrated(page, 'newsletter-modal');
          // Had the hash opened it, the dialog's code would have been asked for and shown by now.
          await settled(page);
          expect(await dialogOf(page).count()).toBe(0);
        }

        // The button always opens it, and the focus comes back to it.
        await open.focus();
        await page.keyboard.press('Enter');
        await dialogOf(page).waitFor();
        await expect.poll(() => focusIsIn(dialogOf(page))).toBe(true);
        await page.keyboard.press('Escape');
        await expect.poll(() => dialogOf(page).count()).toBe(0);
        await expect.poll(() => isFocused(open)).toBe(true);
        expect(problems.console).toEqual([]);
        await context.close();
      },
    );

    it('newsletter modal opened by a link or a hash change gives the focus back there', async () => {
      const { context, page } = await newPage(browser, width);
      const problems = watchProblems(page);
      const origin = siteOrigin('ammattilaiset');
      await page.goto(`${origin}/`);
      await hydrated(page, 'newsletter-modal');
      // A link to the modal in the page's text, as an editor writes it.
      await page.evaluate(() => {
        const link = Object.assign(document.createElement('a'), {
          href: '#newsletter',
          textContent: 'Tilaa uutiskirjeemme',
        });
        const paragraph = document.createElement('p');
        paragraph.className = 'container';
        paragraph.append(link);
        document.querySelector('main')?.prepend(paragraph);
      });
      const link = page.locator('main a[href="#newsletter"]');
      await link.focus();
      await page.keyboard.press('Enter');
      await dialogOf(page).waitFor();
      await expect.poll(() => focusIsIn(dialogOf(page))).toBe(true);
      await page.keyboard.press('Escape');
      await expect.poll(() => dialogOf(page).count()).toBe(0);
      await expect.poll(() => isFocused(link)).toBe(true);
      await noSeriousViolations(page, 'newsletter closed, focus on the link');
      await shot(page, `newsletter-focus-link-${width}`);

      // A hash set while the focus is elsewhere (the header's logo link): the focus goes back
      // there. Closing set the dismissal flag; a visitor who had not closed it has none.
      await page.evaluate(() => window.localStorage.removeItem('kattaus:newsletter-dismissed'));
      const logo = page.locator('header a[href="/"]').first();
      await logo.focus();
      await page.evaluate(() => {
        window.location.hash = 'newsletter';
      });
      await dialogOf(page).waitFor();
      await expect.poll(() => focusIsIn(dialogOf(page))).toBe(true);
      await dialogOf(page)
        .getByRole('button', { name: t('subscribe.close') })
        .first()
        .click();
      await expect.poll(() => dialogOf(page).count()).toBe(0);
      await expect.poll(() => isFocused(logo)).toBe(true);
      expect(problems.console).toEqual([]);
      await context.close();
    });

    it('news-release modal: categories, at least one, thank-you, hash and button', async () => {
      const { context, page } = await newPage(browser, width);
      const problems = watchProblems(page);
      const origin = siteOrigin('konsernifi');
      await arriveWithHash(page, origin, '/uutiset', 'newsreleases');
      await hydrated(page, 'news-releases-modal');
      const dialog = dialogOf(page);
      await dialog.waitFor();
      await dialog.getByLabel('Lehdistötiedotteet').waitFor();
      await expect.poll(() => focusIsIn(dialog)).toBe(true);
      await noSeriousViolations(page, 'news open');
      await shot(page, `news-open-${width}`);

      await dialog.getByLabel(t('subscribe.field.email')).fill(address());
      await dialog.getByRole('button', { name: t('subscribe.news.submit') }).click();
      await expect
        .poll(() => dialog.getByText(t('subscribe.error.chooseOne')).first().isVisible())
        .toBe(true);
      await noSeriousViolations(page, 'news invalid');
      await shot(page, `news-invalid-${width}`);
      await expectTrapped(page);

      await dialog.getByLabel('Pörssitiedotteet').check();
      await dialog.getByRole('button', { name: t('subscribe.news.submit') }).click();
      await dialog.getByText(t('subscribe.newsletter.thanks')).waitFor();
      await noSeriousViolations(page, 'news thanks');
      await shot(page, `news-thanks-${width}`);
      await page.keyboard.press('Escape');
      await expect.poll(() => dialogOf(page).count()).toBe(0);

      await page.goto(`${origin}/uutiset?visit=5#newsreleases`);
      await hydrated(page, 'news-releases-modal');
      // Had the hash opened it, the dialog's code would have been asked for and shown by now.
      await settled(page);
      expect(await dialogOf(page).count()).toBe(0);

      const open = page.getByRole('button', { name: t('subscribe.news.open') });
      await open.click();
      await dialogOf(page).waitFor();
      await page.keyboard.press('Escape');
      await expect.poll(() => dialogOf(page).count()).toBe(0);
      await expect.poll(() => isFocused(open)).toBe(true);
      expect(problems.console).toEqual([]);
      await context.close();
    });

    it('campaign block: required boxes, then the thank-you', async () => {
      const { context, page } = await newPage(browser, width);
      const problems = watchProblems(page);
      const origin = siteOrigin('mestariforsmanfi');
      await page.goto(`${origin}/`);
      // The islands of the home page hydrated first: a click as they do once went nowhere.
      // A site that sells through the shop: its header syncs the cart (decision 160).
      await hydrated(page, 'site-header-synced');
      await Promise.all([
        page.waitForURL(/\/kampanja$/, { waitUntil: 'commit' }),
        page.getByRole('link', { name: 'Osallistu kampanjaan' }).click(),
      ]);
      const form = page.locator('k-island[data-name="campaign-form"]');
      await scrollIslandIntoView(form);
      await hydrated(page, 'campaign-form');
      await form.getByRole('button', { name: t('subscribe.campaign.submit') }).click();
      await expect.poll(() => form.getByText(t('subscribe.error.required')).count()).toBe(2);
      expect(await form.getByText(t('subscribe.error.email')).count()).toBeGreaterThan(0);
      await noSeriousViolations(page, 'campaign invalid');
      await shot(page, `campaign-invalid-${width}`, true);

      await form.getByLabel(t('subscribe.field.email')).fill(address());
      await form.getByLabel(t('subscribe.campaign.isAdult')).check();
      await form.getByLabel(t('subscribe.campaign.rules')).check();
      await form.getByRole('button', { name: t('subscribe.campaign.submit') }).click();
      await form.getByText(t('subscribe.campaign.thanks')).waitFor();
      await noSeriousViolations(page, 'campaign thanks');
      await shot(page, `campaign-thanks-${width}`);
      expect(problems.console).toEqual([]);
      await context.close();
    });

    it('floating overlay: closed, newsletter, questionForm', async () => {
      const { context, page } = await newPage(browser, width);
      const problems = watchProblems(page);
      await page.goto(`${siteOrigin('ammattilaiset')}/`);
      await hydrated(page, 'floating-overlay');
      const bar = page.getByRole('complementary', { name: t('subscribe.overlay.label') });
      const newsletter = bar.getByRole('button', { name: t('subscribe.overlay.newsletter') });
      const expert = bar.getByRole('button', { name: t('subscribe.overlay.expert') });
      const hide = bar.getByRole('button', { name: t('subscribe.overlay.hide') });
      expect(await newsletter.isVisible()).toBe(true);
      expect(await expert.isVisible()).toBe(true);
      // The close is the small screens' only.
      expect(await hide.isVisible()).toBe(width < 768);
      const state = page.locator('k-island[data-name="floating-overlay"] aside');
      expect(await state.getAttribute('data-state')).toBe('closed');
      await noSeriousViolations(page, 'overlay closed');
      await shot(page, `overlay-closed-${width}`);

      await newsletter.click();
      const dialog = dialogOf(page);
      await dialog.waitFor();
      await expect.poll(() => focusIsIn(dialog)).toBe(true);
      const scrollLocked = await page.evaluate(
        () =>
          getComputedStyle(document.documentElement).overflow === 'hidden' ||
          getComputedStyle(document.body).overflow === 'hidden',
      );
      if (width < 768) expect(scrollLocked).toBe(true);
      await noSeriousViolations(page, 'overlay newsletter');
      await shot(page, `overlay-newsletter-${width}`);
      await expectTrapped(page);
      await dialog.getByLabel(t('subscribe.field.email')).fill(address());
      await dialog.getByRole('button', { name: t('subscribe.newsletter.submit') }).click();
      await dialog.getByText(t('subscribe.newsletter.thanks')).waitFor();
      await noSeriousViolations(page, 'overlay newsletter thanks');
      await shot(page, `overlay-newsletter-thanks-${width}`);
      await page.keyboard.press('Escape');
      await expect.poll(() => dialogOf(page).count()).toBe(0);
      await expect.poll(() => isFocused(newsletter)).toBe(true);
      expect(await state.getAttribute('data-state')).toBe('closed');

      await expert.click();
      await dialogOf(page).waitFor();
      await dialogOf(page).getByLabel(t('form.field.fullName')).waitFor();
      expect(await state.getAttribute('data-state')).toBe('questionForm');
      await noSeriousViolations(page, 'overlay question form');
      await shot(page, `overlay-question-${width}`);
      await expectTrapped(page);
      await page.keyboard.press('Escape');
      await expect.poll(() => dialogOf(page).count()).toBe(0);
      await expect.poll(() => isFocused(expert)).toBe(true);

      if (width < 768) {
        await hide.click();
        expect(await bar.count()).toBe(0);
      }
      expect(problems.console).toEqual([]);
      await context.close();
    });

    it('floating overlay never covers a form field or the lunch menu', async () => {
      const { context, page } = await newPage(browser, width);
      const problems = watchProblems(page);
      const bar = page.getByRole('complementary', { name: t('subscribe.overlay.label') });
      const aside = page.locator('k-island[data-name="floating-overlay"] aside');
      /** Whether the bar shows where `target` is. */
      const covers = (target: Locator) =>
        target.evaluate((el) => {
          const bar = document.querySelector('k-island[data-name="floating-overlay"] aside');
          if (!bar || getComputedStyle(bar).visibility === 'hidden') return false;
          const a = bar.getBoundingClientRect();
          const b = el.getBoundingClientRect();
          return b.bottom > a.top && b.top < a.bottom && b.right > a.left && b.left < a.right;
        });

      // Each field of the expert question form, focused as Tab would: never under the bar.
      await page.goto(`${siteOrigin('ammattilaiset')}/ota-yhteytta`);
      await hydrated(page, 'floating-overlay');
      await hydrated(page, 'form-expert-question');
      const fields = page.locator('main form').locator('input:visible, textarea:visible');
      expect(await fields.count()).toBeGreaterThan(3);
      for (const field of await fields.all()) {
        await field.focus();
        await expect.poll(() => covers(field)).toBe(false);
      }
      await noSeriousViolations(page, 'overlay beside a form');
      await shot(page, `overlay-form-${width}`);

      // The lunch menu: Friday, where cards are dragged, at first sight and brought into view.
      await page.goto(`${siteOrigin('ammattilaiset')}/ideat/lounaslista`);
      await hydrated(page, 'floating-overlay');
      await hydrated(page, 'lunch-menu');
      const friday = page
        .locator('[data-lunch-menu] section')
        .filter({ has: page.getByRole('heading', { name: t('lunchMenu.day.friday') }) })
        .first();
      await expect.poll(() => covers(friday)).toBe(false);
      await shot(page, `overlay-lunch-menu-${width}`);
      await friday.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await expect.poll(() => covers(friday)).toBe(false);
      await noSeriousViolations(page, 'overlay beside the lunch menu');
      // Past the menu the bar is back.
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await expect.poll(() => aside.getAttribute('data-clear')).toBe(null);
      await expect.poll(() => bar.isVisible()).toBe(true);
      await shot(page, `overlay-lunch-menu-end-${width}`);
      expect(problems.console).toEqual([]);
      await context.close();
    });
  });
}
