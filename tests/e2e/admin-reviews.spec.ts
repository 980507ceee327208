import { rm } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { serverT } from '../../src/i18n/catalogues.ts';
import {
  createStaffMember,
  startServerProcess,
  stopServerProcess,
} from '../helpers/server-process.ts';
import { enrolFromLink, placeOrder, seededShopEnv } from './admin-shop-support.ts';
import {
  expectNoSeriousViolations as axe,
  chromiumForFile,
  hydrated,
  isFocused,
  pressByTab as press,
  screenshots,
  tabTo,
} from './browser.ts';
import { type ProductForSale, productsForSale, registerInPage } from './shop-support.ts';

/**
 * Review moderation as the done-when line has it (decision 148), on a server of its own
 * with the shop's default pre-moderation: a shopper writes a review by keyboard and is told it
 * waits; it is not listed and the product's rating stays; a member of customer service finds it
 * in the queue with its product and verified-purchase mark (she bought the product first) and approves it by keyboard; now it
 * shows and the rating changes. Another review is rejected with a reason (the dialog refuses an
 * empty one) and is found under the rejected ones. axe finds nothing serious on the queue, the
 * open dialog and the shopper's states; screenshots at 1280 and 375 px.
 */
let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});
const shot = screenshots('admin-reviews');
const t = serverT('fi');
const PASSWORD = 'asiakaspalvelun pitkä salasana';

/** Registers a shopper in the page's session from the mailed link and saves an address. */
async function logIn(page: Page, firstName: string): Promise<void> {
  const email = `${firstName.toLowerCase()}-${Date.now()}@example.fi`;
  expect(await registerInPage(page, email, firstName)).toEqual([200, 200, 200]);
}

/** The product detail's rating, as the shop's API answers it. */
function ratingOf(page: Page, code: string) {
  return page.evaluate(async (code) => {
    const detail = await (await fetch(`/api/products/${code}?language=fi`)).json();
    return { averageRating: detail.averageRating, reviewCount: detail.reviewCount };
  }, code);
}

/** The texts of the product's listed reviews, as the shop's API answers them. */
function listedTexts(page: Page, productId: number): Promise<string[]> {
  return page.evaluate(async (productId) => {
    const res = await fetch(`/api/review/lihakauppa/?productId=${productId}&pageSize=50`);
    return ((await res.json()).hits as { text: string }[]).map((h) => h.text);
  }, productId);
}

/** Writes a review through the dialog by keyboard: `stars`, the text, the shown name. */
async function writeReview(page: Page, stars: number, text: string, name: string) {
  const write = page.getByRole('button', { name: t('review.write') });
  await tabTo(page, write);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await tabTo(page, dialog.getByRole('radio', { name: t('review.field.ratingOne') }), 10);
  await page.keyboard.press('Space');
  for (let i = 1; i < stars; i++) await page.keyboard.press('ArrowRight');
  await tabTo(page, dialog.getByLabel(t('review.field.text')), 5);
  await page.keyboard.type(text);
  const userName = dialog.getByLabel(t('review.field.userName'));
  await tabTo(page, userName, 5);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(name);
  await page.keyboard.press('Enter');
  return dialog;
}

describe('review moderation', () => {
  it('hides a shopper’s review until a moderator approves it by keyboard; rejects another with a reason', async () => {
    const { port, dataDir, env } = await seededShopEnv('kattaus-e2e-reviews-');
    const link = createStaffMember(env, {
      email: 'asta.asiakaspalvelu@kattaus.example',
      name: 'Asta Asiakaspalvelu',
      role: 'customer-service',
    });
    const { child } = await startServerProcess(inject('serverBuild'), env);
    const origin = `http://lihakauppa.localhost:${port}`;
    try {
      // The shopper: a product for sale, its rating as it stands.
      const shopperContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      shopperContext.setDefaultTimeout(10_000);
      const shopper = await shopperContext.newPage();
      await shopper.goto(`${origin}/`);
      const [product] = (await productsForSale(shopper, 1)) as [ProductForSale];
      const before = await ratingOf(shopper, product.code);
      const listedBefore = await listedTexts(shopper, product.productId);
      // She buys it first (registering on the way), so her review is a verified purchase.
      const placed = await placeOrder(shopper, {
        firstName: 'Sanni',
        lines: [{ code: product.code, quantity: 1 }],
      });
      await shopper.goto(placed.next);
      await shopper.getByRole('button', { name: 'Hyväksy maksu' }).click();
      await shopper.waitForURL(`**/kassa/vahvistus?tilaus=${placed.orderId}`);
      await shopper.goto(`${origin}${product.url}#reviews`);
      await hydrated(shopper, 'shop-reviews');

      // Written by keyboard: the thank-you says it waits for moderation.
      const text = 'Mureaa ja maukasta, tilaan uudelleen.';
      const dialog = await writeReview(shopper, 5, text, 'Sanni S.');
      const thanks = dialog.getByRole('heading', { name: t('review.thanks.title') });
      await thanks.waitFor();
      await expect.poll(() => isFocused(thanks)).toBe(true);
      expect(await dialog.textContent()).toContain(t('review.thanks.pending'));
      await axe(shopper, 'shopper thank-you');
      await shot(shopper, 'shopper-waits-1280');
      await shopper.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      const waits = shopper.getByText(t('review.reviewedPending'), { exact: true });
      await expect.poll(() => isFocused(waits)).toBe(true);
      // Not listed, the rating as it was; after a reload the author is still told it waits.
      expect(await shopper.locator('#reviews').textContent()).not.toContain(text);
      expect(await listedTexts(shopper, product.productId)).toEqual(listedBefore);
      expect(await ratingOf(shopper, product.code)).toEqual(before);
      await shopper.reload();
      await hydrated(shopper, 'shop-reviews');
      expect(await waits.count()).toBe(1);
      expect(await shopper.locator('#reviews').textContent()).not.toContain(text);

      // The moderator enrols from the command's link and opens the shop's reviews.
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        locale: 'fi-FI',
      });
      context.setDefaultTimeout(10_000);
      const page = await context.newPage();
      await enrolFromLink(page, link, 'Asta Asiakaspalvelu', PASSWORD);
      await press(page, 'link', 'Kauppa');
      const shopMenu = page.getByRole('navigation', { name: 'Kaupan valikko' });
      await shopMenu.waitFor();
      expect(await shopMenu.getByRole('link').allTextContents()).toContain('Arvostelut');
      await press(page, 'link', 'Arvostelut', shopMenu);
      await page.getByRole('heading', { level: 1, name: 'Arvostelut' }).waitFor();

      // The queue: the product (a link to its page), stars, text, author, purchase, date.
      const item = page.getByRole('listitem').filter({ hasText: text });
      await item.waitFor();
      expect(await page.getByRole('radio', { name: /^Odottavat \(\d+\)$/ }).isChecked()).toBe(true);
      const productLink = item.getByRole('link', { name: product.name });
      expect(await productLink.getAttribute('href')).toBe(`${origin}${product.url}`);
      expect(await item.getByRole('img').getAttribute('aria-label')).toBe('Arvosana 5/5');
      expect(await item.textContent()).toContain('Sanni S.');
      expect(await item.getByText('Vahvistettu ostos', { exact: true }).count()).toBe(1);
      await axe(page, 'queue');
      await shot(page, 'queue-1280', true);

      // Approved by keyboard: said politely; the review leaves the queue.
      await press(page, 'button', `Hyväksy: Sanni S., ${product.name}`);
      await page.getByText(`Arvostelu julkaistu: ${product.name}.`).waitFor();
      await expect.poll(() => item.count()).toBe(0);
      await axe(page, 'queue after approving');

      // Shown to everyone now, and counted.
      await shopper.reload();
      await hydrated(shopper, 'shop-reviews');
      expect(await shopper.locator('#reviews li[data-review]').first().textContent()).toContain(
        text,
      );
      expect(await shopper.getByText(t('review.reviewed'), { exact: true }).count()).toBe(1);
      const after = await ratingOf(shopper, product.code);
      expect(after.reviewCount).toBe(before.reviewCount + 1);
      expect(after.averageRating).toBeCloseTo(
        Math.round(
          (((before.averageRating ?? 0) * before.reviewCount + 5) / (before.reviewCount + 1)) * 10,
        ) / 10,
        5,
      );
      await shot(shopper, 'shopper-shown-1280');

      // Another shopper's review, rejected with a reason.
      const second = await browser.newContext({ viewport: { width: 375, height: 800 } });
      second.setDefaultTimeout(10_000);
      const other = await second.newPage();
      await other.goto(`${origin}/`);
      await logIn(other, 'Olli');
      await other.goto(`${origin}${product.url}#reviews`);
      await hydrated(other, 'shop-reviews');
      const spam = 'Katso halvemmat tarjoukset osoitteesta esimerkki.invalid';
      const otherDialog = await writeReview(other, 1, spam, 'Olli');
      await otherDialog.getByText(t('review.thanks.pending')).waitFor();
      await axe(other, 'shopper thank-you at 375');
      await shot(other, 'shopper-waits-375');
      await second.close();

      await page.reload();
      const spamItem = page.getByRole('listitem').filter({ hasText: spam });
      await spamItem.waitFor();
      await press(page, 'button', `Hylkää: Olli, ${product.name}`);
      const reject = page.getByRole('dialog', { name: `Hylkää arvostelu: ${product.name}` });
      await reject.waitFor();
      const reason = reject.getByRole('textbox', { name: 'Hylkäämisen syy' });
      await expect.poll(() => isFocused(reason)).toBe(true);
      await axe(page, 'reject dialog');
      await shot(page, 'reject-dialog-1280');
      // Without a reason: refused in the dialog, which stays open.
      await press(page, 'button', 'Hylkää arvostelu', reject);
      await reject.getByText('Täytä tämä kenttä.').first().waitFor();
      expect(await reason.getAttribute('aria-invalid')).toBe('true');
      await axe(page, 'reject dialog with its error');
      await shot(page, 'reject-dialog-error-1280');
      await tabTo(page, reason);
      await page.keyboard.type('Mainos toisesta kaupasta');
      await press(page, 'button', 'Hylkää arvostelu', reject);
      await reject.waitFor({ state: 'detached' });
      await page.getByText(`Arvostelu hylätty: ${product.name}.`).waitFor();
      await expect.poll(() => spamItem.count()).toBe(0);
      expect(await listedTexts(shopper, product.productId)).not.toContain(spam);
      expect(await ratingOf(shopper, product.code)).toEqual(after);

      // Among the rejected ones, with its reason and who decided; chosen by keyboard.
      await tabTo(page, page.getByRole('radio', { name: /^Odottavat/ }));
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await page.waitForURL('**/admin/reviews?state=rejected');
      const rejected = page.getByRole('listitem').filter({ hasText: spam });
      await rejected.waitFor();
      expect(await rejected.textContent()).toContain('Mainos toisesta kaupasta');
      expect(await rejected.textContent()).toContain('Asta Asiakaspalvelu');
      await axe(page, 'rejected reviews');
      await shot(page, 'rejected-1280', true);

      // On a phone: the queue of published ones, and the dialog that takes one down.
      await page.setViewportSize({ width: 375, height: 800 });
      await tabTo(page, page.getByRole('radio', { name: /^Hylätyt/ }));
      await page.keyboard.press('ArrowUp');
      await page.waitForURL('**/admin/reviews?state=published');
      const published = page.getByRole('listitem').filter({ hasText: text });
      await published.waitFor();
      await axe(page, 'published at 375');
      await shot(page, 'published-375', true);
      await press(page, 'button', `Hylkää: Sanni S., ${product.name}`);
      await page.getByRole('dialog').waitFor();
      await axe(page, 'reject dialog at 375');
      await shot(page, 'reject-dialog-375');
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await context.close();
      await shopperContext.close();
    } finally {
      await stopServerProcess(child);
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
