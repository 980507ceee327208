import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import {
  createStaffMember,
  freePort,
  startServerProcess,
  stopServerProcess,
} from '../helpers/server-process.ts';
import { codes, untilReauthAsked } from './admin-shop-support.ts';
import {
  adminEnrolmentLink,
  expectNoSeriousViolations as axe,
  chromiumForFile,
  isFocused,
  screenshots,
  serverPort,
  slowPoll,
  watchProblems,
} from './browser.ts';

/**
 * The back office as a new user meets it (issue 34): the first administrator's enrolment link
 * from the README's command (run by the e2e set-up before the server starts), a password and an
 * authenticator (codes computed from the secret the page shows), signing out and in with a code
 * and with a recovery code (which then no longer works), adding an editor for jyvabroiler in
 * Finnish, and that editor seeing only what the grant allows. axe on every screen and state; the
 * editor does everything by keyboard.
 */
let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});

const port = serverPort();
const origin = `http://127.0.0.1:${port}`;
const shot = screenshots('admin');
const PASSWORD = 'hallinnan pitkä salasana 2026';
/** Each test walks many screens (and the last starts a server of its own). */
const WALK_TIMEOUT = 150_000;
/** The administrator's TOTP codes, for the later tests (set by the first). */
let adminCodes: (() => Promise<string>) | undefined;

/** A fresh browser (its own cookies) at a window width, in Finnish as a Finnish staff member's. */
async function fiPage(width: number) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'fi-FI' });
  context.setDefaultTimeout(10_000);
  return { context, page: await context.newPage() };
}

async function heading(page: Page, text: string | RegExp) {
  await page.getByRole('heading', { level: 1, name: text }).waitFor();
}

/** Types into the focused element after Tab has brought the focus to `target`. */
async function tabToAndType(page: Page, target: Locator, text: string) {
  for (let i = 0; i < 40 && !(await isFocused(target)); i++) await page.keyboard.press('Tab');
  expect(await isFocused(target)).toBe(true);
  await page.keyboard.type(text);
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Kirjaudu ulos' }).click();
  await heading(page, 'Kirjaudu hallintaan');
  await page.getByText('Olet kirjautunut ulos.').waitFor();
}

async function passwordStep(page: Page, email: string) {
  await page.getByLabel('Sähköpostiosoite').fill(email);
  await page.getByLabel('Salasana').fill(PASSWORD);
  await page.getByRole('button', { name: 'Jatka' }).click();
  await heading(page, 'Kaksivaiheinen tunnistautuminen');
}

describe('the back office', () => {
  it(
    'walks from the command’s link to an editor who sees only their grant',
    async () => {
      const { context, page } = await fiPage(1280);
      const problems = watchProblems(page);
      const csp: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) csp.push(m.text());
      });

      // Enrolment from the link `npm run staff -- create` printed.
      await page.goto(adminEnrolmentLink());
      await heading(page, 'Tervetuloa, Ylla Pitäjä');
      await axe(page, 'enrolment');
      await shot(page, 'enrol-1280', true);
      const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      const next = codes(secret);
      adminCodes = next;
      await page.getByLabel('Salasana').fill('liian lyhyt');
      // The password is refused before any code is looked at: no step of the codes spent on it.
      await page.getByLabel('Sovelluksen koodi').fill('000000');
      await page.getByRole('button', { name: 'Ota käyttöön' }).click();
      await page.getByText('Salasanassa on oltava vähintään 12 merkkiä.').first().waitFor();
      await axe(page, 'enrolment with errors');
      await shot(page, 'enrol-errors-1280', true);
      await page.getByLabel('Salasana').fill(PASSWORD);
      await page.getByLabel('Sovelluksen koodi').fill(await next());
      await page.getByRole('button', { name: 'Ota käyttöön' }).click();
      await page.getByRole('heading', { name: 'Varakoodisi' }).waitFor();
      const recovery = await page.getByTestId('recovery-codes').locator('code').allTextContents();
      expect(recovery).toHaveLength(10);
      await axe(page, 'recovery codes');
      await shot(page, 'recovery-codes-1280');
      await page.getByRole('button', { name: 'Olen tallentanut koodit' }).click();
      await heading(page, 'Hei, Ylla Pitäjä');
      await axe(page, 'home');
      await shot(page, 'home-1280');

      // Out, and in with the password and a code.
      await signOut(page);
      await axe(page, 'signed out');
      await shot(page, 'login-1280');
      await page.getByLabel('Sähköpostiosoite').fill('ylla.pitaja@kattaus.example');
      await page.getByLabel('Salasana').fill('väärä salasana 123');
      await page.getByRole('button', { name: 'Jatka' }).click();
      await page.getByText('Sähköpostiosoite tai salasana on väärin.').first().waitFor();
      await axe(page, 'wrong password');
      await passwordStep(page, 'ylla.pitaja@kattaus.example');
      await axe(page, 'code step');
      await shot(page, 'code-1280');
      await page.getByLabel('Koodi').fill(await next());
      await page.getByRole('button', { name: 'Kirjaudu' }).click();
      await heading(page, 'Hei, Ylla Pitäjä');

      // Out, and in with a recovery code, which then no longer works.
      await signOut(page);
      await passwordStep(page, 'ylla.pitaja@kattaus.example');
      await page.getByRole('button', { name: 'Käytä varakoodia' }).click();
      await page.getByLabel('Varakoodi').fill(recovery[0] ?? '');
      await axe(page, 'recovery step');
      await page.getByRole('button', { name: 'Kirjaudu' }).click();
      await heading(page, 'Hei, Ylla Pitäjä');
      await signOut(page);
      await passwordStep(page, 'ylla.pitaja@kattaus.example');
      await page.getByRole('button', { name: 'Käytä varakoodia' }).click();
      await page.getByLabel('Varakoodi').fill(recovery[0] ?? '');
      await page.getByRole('button', { name: 'Kirjaudu' }).click();
      await page.getByText('Varakoodi ei kelpaa tai se on jo käytetty.').first().waitFor();
      await axe(page, 'used recovery code');
      await shot(page, 'recovery-used-1280');
      await page.getByLabel('Varakoodi').fill(recovery[1] ?? '');
      await page.getByRole('button', { name: 'Kirjaudu' }).click();
      await heading(page, 'Hei, Ylla Pitäjä');

      // An editor for jyvabroiler in Finnish.
      await page.getByRole('link', { name: 'Henkilöstö' }).click();
      await heading(page, 'Henkilöstö');
      await axe(page, 'staff list');
      await page.getByRole('button', { name: 'Lisää henkilö' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Nimi').fill('Eeva Editori');
      await dialog.getByLabel('Sähköposti').fill('eeva.editori@kattaus.example');
      const sites = dialog.getByRole('group', { name: 'Sivustot' });
      await sites.getByText('Jyväbroileri', { exact: true }).click();
      const langs = dialog.getByRole('group', { name: 'Kielet' });
      await langs.getByText('suomi', { exact: true }).click();
      expect(await langs.getByRole('checkbox', { name: 'suomi' }).isChecked()).toBe(true);
      expect(await sites.getByRole('checkbox', { name: 'Jyväbroileri' }).isChecked()).toBe(true);
      await expect
        .poll(() => sites.getByRole('checkbox', { name: 'Kaikki sivustot' }).isChecked())
        .toBe(false);
      await axe(page, 'add staff dialog');
      await shot(page, 'add-staff-1280');
      await dialog.getByRole('button', { name: 'Lisää', exact: true }).click();
      const link = (await page.getByTestId('enrolment-link').textContent()) ?? '';
      expect(link).toMatch(/\/admin\/enrol#[\w-]{43}$/);
      await page.getByRole('row', { name: /Eeva Editori/ }).waitFor();
      // Roles by their names in the staff member's language, not their keys.
      await slowPoll(() => page.getByRole('row', { name: /Eeva Editori/ }).textContent()).toContain(
        'Sisällöntuottaja',
      );
      expect(await page.getByRole('row', { name: /Ylla Pitäjä/ }).textContent()).toContain(
        'Ylläpitäjä',
      );
      await axe(page, 'staff added');
      await shot(page, 'staff-1280');
      await page.getByRole('link', { name: 'Roolit' }).click();
      await heading(page, 'Roolit');
      await axe(page, 'roles');
      await shot(page, 'roles-1280', true);
      await page.getByRole('link', { name: 'Tapahtumaloki' }).click();
      await heading(page, 'Tapahtumaloki');
      await page.getByRole('row').filter({ hasText: 'staff.create' }).first().waitFor();
      await axe(page, 'audit log');
      await shot(page, 'audit-1280');
      await page.getByRole('link', { name: 'Oma profiili' }).click();
      await heading(page, 'Oma profiili');
      await axe(page, 'profile');
      await shot(page, 'profile-1280', true);
      // The API's refusals (a short password, a wrong one, a used code) show as failed loads.
      expect(problems.console.filter((m) => !/status of 4\d\d/.test(m))).toEqual([]);
      expect(csp).toEqual([]);
      await context.close();

      // The editor, by keyboard only, at 375 px.
      const editor = await fiPage(375);
      const ep = editor.page;
      await ep.goto(link.replace(/^https?:\/\/[^/]+/, origin));
      await heading(ep, 'Tervetuloa, Eeva Editori');
      await shot(ep, 'enrol-375', true);
      const editorSecret = (await ep.getByTestId('totp-secret').textContent()) ?? '';
      const editorNext = codes(editorSecret);
      await tabToAndType(ep, ep.getByLabel('Salasana'), PASSWORD);
      await tabToAndType(ep, ep.getByLabel('Sovelluksen koodi'), await editorNext());
      await ep.keyboard.press('Enter');
      await ep.getByRole('heading', { name: 'Varakoodisi' }).waitFor();
      const continueButton = ep.getByRole('button', { name: 'Olen tallentanut koodit' });
      for (let i = 0; i < 20 && !(await isFocused(continueButton)); i++)
        await ep.keyboard.press('Tab');
      await ep.keyboard.press('Enter');
      await heading(ep, 'Hei, Eeva Editori');
      await axe(ep, 'editor home');
      await shot(ep, 'editor-home-375', true);
      const nav = ep.getByRole('navigation', { name: 'Hallinnan valikko' });
      expect(await nav.getByRole('link').allTextContents()).toEqual([
        'Etusivu',
        'Sisältö',
        'Oma profiili',
      ]);
      const grants = await ep.getByTestId('my-grants').textContent();
      expect(grants).toContain('Jyväbroileri');
      expect(grants).toContain('suomi');
      expect(grants).not.toContain('kaikki sivustot');

      // The pages the grant reaches: jyvabroiler's Finnish ones, nothing else.
      const pagesLink = nav.getByRole('link', { name: 'Sisältö' });
      for (let i = 0; i < 20 && !(await isFocused(pagesLink)); i++) await ep.keyboard.press('Tab');
      await ep.keyboard.press('Enter');
      await heading(ep, 'Sivut');
      // The tree of the one site and language the grant reaches, and no choice of another.
      await ep.getByText('Sivusto ja kieli: jyvabroiler, fi').waitFor();
      const tree = ep.getByRole('treegrid', { name: 'Sivupuu: jyvabroiler, fi' });
      await tree.getByRole('row').first().waitFor();
      expect(await tree.getByRole('row').count()).toBeGreaterThan(0);
      expect(await ep.getByRole('button', { name: /Sivusto ja kieli/ }).count()).toBe(0);
      await axe(ep, 'editor pages');
      await shot(ep, 'editor-pages-375');
      // What the grant does not give, the server refuses; the app says so.
      const staffApi = await ep.evaluate(() => fetch('/api/admin/staff').then((r) => r.status));
      expect(staffApi).toBe(403);
      await ep.goto(`${origin}/admin/staff`);
      await ep.getByText('Sinulla ei ole oikeutta tähän.').waitFor();
      await axe(ep, 'editor forbidden');
      await shot(ep, 'editor-forbidden-375');
      await editor.context.close();

      // And back in with the password and a code, by keyboard.
      const again = await fiPage(375);
      await again.page.goto(`${origin}/admin`);
      await heading(again.page, 'Kirjaudu hallintaan');
      await shot(again.page, 'login-375');
      await tabToAndType(
        again.page,
        again.page.getByLabel('Sähköpostiosoite'),
        'eeva.editori@kattaus.example',
      );
      await tabToAndType(again.page, again.page.getByLabel('Salasana'), PASSWORD);
      await again.page.keyboard.press('Enter');
      await heading(again.page, 'Kaksivaiheinen tunnistautuminen');
      await tabToAndType(again.page, again.page.getByLabel('Koodi'), await editorNext());
      await again.page.keyboard.press('Enter');
      await heading(again.page, 'Hei, Eeva Editori');
      await again.context.close();
    },
    WALK_TIMEOUT,
  );

  it(
    'shows every other screen and state without serious axe findings, by keyboard',
    async () => {
      const next = adminCodes;
      if (!next) throw new Error('the first test enrols the administrator');
      // localhost, not 127.0.0.1: a passkey's relying party is a host name, never an address.
      const local = `http://localhost:${port}`;
      const { context, page } = await fiPage(1280);
      const csp: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) csp.push(m.text());
      });

      // Password reset: asking for a link.
      await page.goto(`${local}/admin/reset`);
      await heading(page, 'Salasanan palautus');
      await axe(page, 'reset request');
      await tabToAndType(page, page.getByLabel('Sähköpostiosoite'), 'ei.ketaan@kattaus.example');
      await page.keyboard.press('Enter');
      await page.getByText('Jos osoitteella on käyttäjätunnus').waitFor();
      await axe(page, 'reset sent');
      await shot(page, 'reset-sent-1280');
      await page.goto(`${local}/admin/reset#${'x'.repeat(43)}`);
      await heading(page, 'Uusi salasana');
      await tabToAndType(
        page,
        page.getByRole('textbox', { name: 'Salasana' }),
        'uusi pitkä salasana 99',
      );
      await page.keyboard.press('Enter');
      await page.getByText('Linkki on tuntematon, käytetty tai vanhentunut.').first().waitFor();
      await axe(page, 'reset with a used link');
      await shot(page, 'reset-used-1280');

      // Signing in by keyboard.
      await page.goto(`${local}/admin/login`);
      await heading(page, 'Kirjaudu hallintaan');
      await tabToAndType(page, page.getByLabel('Sähköpostiosoite'), 'ylla.pitaja@kattaus.example');
      await tabToAndType(page, page.getByLabel('Salasana'), PASSWORD);
      await page.keyboard.press('Enter');
      await heading(page, 'Kaksivaiheinen tunnistautuminen');
      await tabToAndType(page, page.getByLabel('Koodi'), '000000');
      await page.keyboard.press('Enter');
      await page.getByText('Koodi ei kelpaa.', { exact: false }).first().waitFor();
      await axe(page, 'wrong code');
      await shot(page, 'code-wrong-1280');
      await page.getByLabel('Koodi').fill(await next());
      await page.keyboard.press('Enter');
      await heading(page, 'Hei, Ylla Pitäjä');

      // Adding a person by keyboard: the dialog, its fields, checkbox groups and the select.
      const nav = page.getByRole('navigation', { name: 'Hallinnan valikko' });
      const staffLink = nav.getByRole('link', { name: 'Henkilöstö' });
      for (let i = 0; i < 20 && !(await isFocused(staffLink)); i++)
        await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await heading(page, 'Henkilöstö');
      const add = page.getByRole('button', { name: 'Lisää henkilö' });
      for (let i = 0; i < 20 && !(await isFocused(add)); i++) await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await tabToAndType(page, dialog.getByLabel('Nimi'), 'Sanna Svensson');
      await tabToAndType(page, dialog.getByLabel('Sähköposti'), 'sanna@kattaus.example');
      const sibylla = dialog
        .getByRole('group', { name: 'Sivustot' })
        .getByRole('checkbox', { name: 'Sibylla' });
      for (let i = 0; i < 40 && !(await isFocused(sibylla)); i++) await page.keyboard.press('Tab');
      await page.keyboard.press('Space');
      expect(await sibylla.isChecked()).toBe(true);
      const swedish = dialog
        .getByRole('group', { name: 'Kielet' })
        .getByRole('checkbox', { name: 'ruotsi' });
      for (let i = 0; i < 40 && !(await isFocused(swedish)); i++) await page.keyboard.press('Tab');
      await page.keyboard.press('Space');
      expect(await swedish.isChecked()).toBe(true);
      const submit = dialog.getByRole('button', { name: 'Lisää', exact: true });
      for (let i = 0; i < 40 && !(await isFocused(submit)); i++) await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.getByTestId('enrolment-link').waitFor();
      await page.getByRole('row').filter({ hasText: 'Sanna Svensson' }).waitFor();
      // The same address again: the dialog says so.
      await add.click();
      await dialog.getByLabel('Nimi').fill('Toinen');
      await dialog.getByLabel('Sähköposti').fill('sanna@kattaus.example');
      await dialog.getByRole('button', { name: 'Lisää', exact: true }).click();
      await dialog.getByText('Osoitteella on jo käyttäjätunnus.').first().waitFor();
      await axe(page, 'add staff, address taken');
      await shot(page, 'add-staff-taken-1280');
      await page.keyboard.press('Escape');

      // One person: grants saved, a new enrolment link.
      await page.getByRole('link', { name: 'Avaa Sanna Svensson' }).click();
      await heading(page, 'Sanna Svensson');
      await axe(page, 'staff member');
      await page.getByRole('button', { name: 'Tallenna roolit' }).click();
      await page.getByText('Roolit on tallennettu.').waitFor();
      await page.getByRole('button', { name: 'Uusi käyttöönottolinkki' }).click();
      await page.getByTestId('enrolment-link').waitFor();
      await axe(page, 'staff member saved, new link');
      await shot(page, 'staff-member-1280', true);

      // A role saved; the profile's forms and their answers.
      await page.getByRole('link', { name: 'Roolit' }).click();
      await heading(page, 'Roolit');
      await page
        .getByRole('form', { name: 'Muokkaa roolia Julkaisija' })
        .getByRole('button', { name: 'Tallenna rooli' })
        .click();
      await page.getByText('Rooli on tallennettu.').waitFor();
      await axe(page, 'role saved');
      // A new role from its dialog, by keyboard: a wrong key first, then a right one.
      const newRole = page.getByRole('button', { name: 'Uusi rooli' });
      await newRole.focus();
      await page.keyboard.press('Enter');
      const roleDialog = page.getByRole('dialog');
      await roleDialog.waitFor();
      expect(await isFocused(roleDialog.getByLabel('Tunnus'))).toBe(true);
      await page.keyboard.type('Kampanjat!');
      await tabToAndType(page, roleDialog.getByLabel('Nimi suomeksi'), 'Kampanjat');
      await tabToAndType(page, roleDialog.getByLabel('Nimi ruotsiksi'), 'Kampanjer');
      await tabToAndType(page, roleDialog.getByLabel('Nimi englanniksi'), 'Campaigns');
      const publish = roleDialog.getByRole('checkbox', { name: 'Sisällön julkaisu' });
      for (let i = 0; i < 20 && !(await isFocused(publish)); i++) await page.keyboard.press('Tab');
      await page.keyboard.press('Space');
      expect(await publish.isChecked()).toBe(true);
      await roleDialog.getByRole('button', { name: 'Luo rooli' }).click();
      await roleDialog
        .getByText('Tunnuksessa on 2–40 pientä kirjainta, numeroa tai yhdysmerkkiä.')
        .first()
        .waitFor();
      // What was typed stays.
      expect(await roleDialog.getByLabel('Nimi suomeksi').inputValue()).toBe('Kampanjat');
      expect(await publish.isChecked()).toBe(true);
      await axe(page, 'new role, wrong key');
      await shot(page, 'role-new-errors-1280', true);
      await roleDialog.getByLabel('Tunnus').fill('kampanjat');
      await roleDialog.getByRole('button', { name: 'Luo rooli' }).click();
      await page.getByText('Rooli Kampanjat on luotu.').waitFor();
      await page.getByRole('heading', { level: 2, name: 'Kampanjat' }).waitFor();
      await axe(page, 'new role created');
      await page.getByRole('link', { name: 'Oma profiili' }).click();
      await heading(page, 'Oma profiili');
      await page.getByRole('button', { name: 'Tallenna', exact: true }).click();
      await page.getByText('Tiedot on tallennettu.').waitFor();
      await page.getByLabel('Nykyinen salasana').fill('väärä salasana 1234');
      await page.getByLabel('Uusi salasana').fill('lyhyt');
      await page.getByRole('button', { name: 'Vaihda salasana' }).click();
      await page.getByText('Salasanassa on oltava vähintään 12 merkkiä.').first().waitFor();
      await page.getByLabel('Uusi salasana').fill('tarpeeksi pitkä uusi salasana');
      await page.getByRole('button', { name: 'Vaihda salasana' }).click();
      await page.getByText('Nykyinen salasana on väärin.').first().waitFor();
      await axe(page, 'profile saved, password refused');
      await page.getByRole('button', { name: 'Luo uudet varakoodit' }).click();
      await page.getByRole('heading', { name: 'Varakoodisi' }).waitFor();
      await axe(page, 'new recovery codes');
      await shot(page, 'profile-states-1280', true);

      // A passkey, from a virtual authenticator, and signing in with it instead of a code.
      const cdp = await context.newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
        },
      });
      await page.getByRole('button', { name: 'Lisää pääsyavain' }).click();
      await page.getByText('Pääsyavain on lisätty.').waitFor();
      expect(await page.getByTestId('passkey-count').textContent()).toBe('Pääsyavaimia: 1');
      await axe(page, 'passkey added');
      await signOut(page);
      await passwordStep(page, 'ylla.pitaja@kattaus.example');
      await page.getByRole('button', { name: 'Käytä pääsyavainta' }).click();
      await heading(page, 'Hei, Ylla Pitäjä');
      // The passkey listed with its dates, and removed; the focus goes to the add button.
      await page.getByRole('link', { name: 'Oma profiili' }).click();
      await heading(page, 'Oma profiili');
      const keys = page.getByRole('list', { name: 'Pääsyavaimesi' });
      await keys.getByRole('listitem').first().waitFor();
      expect(await keys.getByRole('listitem').count()).toBe(1);
      expect(await keys.textContent()).toMatch(/Lisätty .+, käytetty viimeksi /);
      await axe(page, 'passkey listed');
      await keys.getByRole('button', { name: /^Poista pääsyavain, lisätty / }).press('Enter');
      await page.getByText('Pääsyavain on poistettu.', { exact: false }).waitFor();
      expect(await page.getByTestId('passkey-count').textContent()).toBe('Pääsyavaimia: 0');
      expect(await isFocused(page.getByRole('button', { name: 'Lisää pääsyavain' }))).toBe(true);
      await axe(page, 'passkey removed');
      await shot(page, 'passkey-removed-1280');
      expect(csp).toEqual([]);

      // The narrow window, the same session: staff list and audit log.
      await page.setViewportSize({ width: 375, height: 900 });
      await page.getByRole('link', { name: 'Henkilöstö' }).click();
      await heading(page, 'Henkilöstö');
      await axe(page, 'staff at 375');
      await shot(page, 'staff-375');
      await page.getByRole('link', { name: 'Tapahtumaloki' }).click();
      await page.getByRole('row').filter({ hasText: 'staff.grants' }).first().waitFor();
      await axe(page, 'audit at 375');
      await shot(page, 'audit-375');
      await context.close();
    },
    WALK_TIMEOUT,
  );

  it(
    'asks for the password or a code again before a sensitive action, in a dialog that keeps the focus',
    async () => {
      // A server of its own whose re-authentication lasts 3 seconds (STAFF_REAUTH_SECONDS), so the
      // test can reach the moment the server asks again without waiting five minutes.
      const ownPort = await freePort();
      const dataDir = await mkdtemp(path.join(tmpdir(), 'kattaus-e2e-reauth-'));
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PORT: String(ownPort),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        STAFF_REAUTH_SECONDS: '3',
        ADMIN_URL: `http://127.0.0.1:${ownPort}/admin`,
      };
      delete env.DATABASE_URL;
      delete env.REDIS_URL;
      const link = createStaffMember(env, {
        email: 'rauni.varmistaja@kattaus.example',
        name: 'Rauni Varmistaja',
        role: 'admin',
      });
      const { child: server } = await startServerProcess(inject('serverBuild'), env);
      try {
        // Enrolled at 1280 px; the same session then at 375 px.
        const { context, page } = await fiPage(1280);
        await page.goto(link);
        await heading(page, 'Tervetuloa, Rauni Varmistaja');
        // The staff member's codes, from the secret the enrolment page shows.
        const code = codes((await page.getByTestId('totp-secret').textContent()) ?? '');
        await page.getByLabel('Salasana').fill(PASSWORD);
        await page.getByLabel('Sovelluksen koodi').fill(await code());
        await page.getByRole('button', { name: 'Ota käyttöön' }).click();
        await page.getByRole('button', { name: 'Olen tallentanut koodit' }).click();
        await heading(page, 'Hei, Rauni Varmistaja');
        for (const width of [1280, 375]) {
          await page.setViewportSize({ width, height: 900 });
          // The profile as it opens: no codes shown yet.
          await page.goto(`http://127.0.0.1:${ownPort}/admin/profile`);
          await heading(page, 'Oma profiili');
          // Until the server itself asks again.
          await untilReauthAsked(page);

          // The action opens the dialog; the focus is in its first field and stays inside.
          const newCodes = page.getByRole('button', { name: 'Luo uudet varakoodit' });
          await newCodes.focus();
          await page.keyboard.press('Enter');
          const dialog = page.getByRole('dialog', { name: 'Vahvista henkilöllisyytesi' });
          await dialog.waitFor();
          expect(await isFocused(dialog.getByLabel('Salasana'))).toBe(true);
          for (let i = 0; i < 8; i++) {
            await page.keyboard.press('Tab');
            expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
          }
          await axe(page, `re-authentication at ${width}`);
          await shot(page, `reauth-${width}`, true);

          // Escape closes it: nothing done, no error, the focus back on the button.
          await page.keyboard.press('Escape');
          await dialog.waitFor({ state: 'detached' });
          // The dialog gives the focus back once it has gone: in the frame after it left.
          await expect.poll(() => isFocused(newCodes)).toBe(true);
          expect(await page.getByRole('alert').count()).toBe(0);
          expect(await page.getByRole('heading', { name: 'Varakoodisi' }).count()).toBe(0);

          // Again: a wrong password is said in the dialog, and what was typed stays.
          await page.keyboard.press('Enter');
          await dialog.waitFor();
          await page.keyboard.type('väärä salasana 1234');
          await page.keyboard.press('Enter');
          await dialog.getByText('Nykyinen salasana on väärin.').first().waitFor();
          expect(await dialog.getByLabel('Salasana').inputValue()).toBe('väärä salasana 1234');
          await axe(page, `re-authentication refused at ${width}`);
          await shot(page, `reauth-refused-${width}`, true);

          // A code instead: the dialog closes and the action is done.
          await dialog.getByLabel('Salasana').fill('');
          await dialog.getByLabel('Tai sovelluksen koodi').fill(await code());
          await dialog.getByRole('button', { name: 'Vahvista' }).click();
          await page.getByRole('heading', { name: 'Varakoodisi' }).waitFor();
          expect(await dialog.count()).toBe(0);
          expect(await page.getByTestId('recovery-codes').locator('code').count()).toBe(10);
        }
        await context.close();
      } finally {
        await stopServerProcess(server);
        await rm(dataDir, { recursive: true, force: true });
      }
    },
    WALK_TIMEOUT,
  );
});
