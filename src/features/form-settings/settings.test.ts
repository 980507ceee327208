import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPage } from '../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { auditOf, type Enrolled, enrolledStaff, json } from '../../../tests/helpers/staff.ts';
import { arrive, type Visitor } from '../../../tests/helpers/visitor.ts';
import { solvedCaptcha, testFormsConfig, validPayload } from '../forms/forms.test-support.ts';
import { type FormId, forms } from '../forms/forms.ts';
import { formSettings, formSubmissions, mailOutbox } from '../forms/tables.ts';
import { auditLog } from '../staff/tables.ts';
import {
  FORM_SETTINGS_API,
  type FormSettingsRow,
  type FormSettingsSite,
  type FormSettingsSites,
} from './schemas.ts';

/**
 * The forms' settings per site in the back office (decision 170): the environment's values are
 * the defaults; staff with `forms.settings` change recipients (grant for every language of the
 * site) and success pages (per language, a page that exists there); a stale version is 409 with
 * the newest; each change is audited; the next submission mails the new recipients and answers
 * the new page. On PGlite by default and on PostgreSQL with DATABASE_URL.
 */
let t: TestApp;
let visitor: Visitor;
/** A publisher of jyvabroiler (Finnish only) and of sibylla in Finnish only. */
let jyva: Enrolled;
let sibyllaFi: Enrolled;
let admin: Enrolled;

const formsConfig = testFormsConfig({
  FORM_RECIPIENTS: 'question@jyvabroiler=ymparisto@kattaus.example,laatu@kattaus.example',
  FORM_DEFAULT_RECIPIENT: 'oletus@kattaus.example',
  FORM_SUCCESS_PAGES: 'question@sibylla=/oletus-kiitos',
});

beforeAll(async () => {
  t = await createTestApp({ config: { forms: formsConfig } });
  visitor = await arrive(t.app);
  await createPage(t.app.db, { siteId: 'jyvabroiler', lang: 'fi', path: '/kiitos' });
  await createPage(t.app.db, { siteId: 'sibylla', lang: 'fi', path: '/ota-yhteytta/kiitos' });
  await createPage(t.app.db, { siteId: 'sibylla', lang: 'sv', path: '/kontakta-oss/tack' });
  jyva = await enrolledStaff(t.app, [{ role: 'publisher', sites: ['jyvabroiler'], langs: ['fi'] }]);
  sibyllaFi = await enrolledStaff(t.app, [
    { role: 'publisher', sites: ['sibylla'], langs: ['fi'] },
  ]);
  admin = await enrolledStaff(t.app, [{ role: 'admin', sites: null, langs: null }]);
}, 120_000);
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.app.db.delete(formSettings);
});

const put = (staff: Enrolled, site: string, form: FormId, body: unknown) =>
  staff.visitor.request('PUT', `${FORM_SETTINGS_API}/${site}/${form}`, json(body));

async function siteSettings(staff: Enrolled, site: string) {
  const response = await staff.visitor.get(`${FORM_SETTINGS_API}/${site}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as FormSettingsSite;
}

const rowOf = (site: FormSettingsSite, form: FormId) => {
  const row = site.forms.find((f) => f.form === form);
  if (!row) throw new Error(`no ${form}`);
  return row;
};

/** Sends the question form on a site (`?lang=` as the widget sends it): its answer and mail. */
async function submitQuestion(site: string, lang?: string) {
  const payload = await validPayload('question');
  payload[forms.question.captchaField] = await solvedCaptcha(t.app);
  const response = await visitor.post(`${forms.question.path}${lang ? `?lang=${lang}` : ''}`, {
    headers: { host: `${site}.localhost`, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
  expect(response.statusCode, response.body).toBe(200);
  const [mail] = await t.app.db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(1);
  return { answer: response.json() as { isSuccess: true; redirect?: string }, mail };
}

describe('form settings', () => {
  it('shows the environment’s values as defaults, and the form uses them', async () => {
    const site = await siteSettings(jyva, 'jyvabroiler');
    expect(site.site).toEqual({ id: 'jyvabroiler', name: expect.any(String), langs: ['fi'] });
    expect(site.forms.map((f) => f.form)).toContain('complaint');
    expect(rowOf(site, 'question')).toEqual({
      form: 'question',
      version: 0,
      updatedAt: null,
      recipients: {
        addresses: ['ymparisto@kattaus.example', 'laatu@kattaus.example'],
        isDefault: true,
        defaults: ['ymparisto@kattaus.example', 'laatu@kattaus.example'],
        editable: true,
      },
      successPages: [{ lang: 'fi', path: null, url: null, isDefault: true, defaultUrl: null }],
    });
    expect(rowOf(site, 'complaint').recipients.addresses).toEqual(['oletus@kattaus.example']);
    const sent = await submitQuestion('jyvabroiler');
    expect(sent.mail?.recipients).toBe('ymparisto@kattaus.example,laatu@kattaus.example');
    expect(sent.answer.redirect).toBeUndefined();
    expect((await submitQuestion('sibylla')).answer.redirect).toBe('/oletus-kiitos');
  });

  it('saves recipients and a success page, audits them, and the next submission uses them', async () => {
    const saved = await put(jyva, 'jyvabroiler', 'question', {
      version: 0,
      recipients: [
        'Palaute@jyvabroiler.example',
        ' toinen@jyvabroiler.example ',
        'palaute@jyvabroiler.example',
      ],
      successPages: { fi: '/kiitos' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const row = saved.json() as FormSettingsRow;
    expect(row.version).toBe(1);
    expect(row.recipients).toEqual({
      addresses: ['Palaute@jyvabroiler.example', 'toinen@jyvabroiler.example'],
      isDefault: false,
      defaults: ['ymparisto@kattaus.example', 'laatu@kattaus.example'],
      editable: true,
    });
    expect(row.successPages).toEqual([
      { lang: 'fi', path: '/kiitos', url: '/kiitos', isDefault: false, defaultUrl: null },
    ]);
    expect(rowOf(await siteSettings(jyva, 'jyvabroiler'), 'question')).toEqual(row);

    const [audit] = await t.app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'forms.settings.update'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audit).toMatchObject({
      staffId: jyva.id,
      subjectType: 'form-settings',
      subjectId: 'jyvabroiler/question',
      siteId: 'jyvabroiler',
      changes: {
        recipients: {
          before: null,
          after: ['Palaute@jyvabroiler.example', 'toinen@jyvabroiler.example'],
        },
        'successPages.fi': { before: null, after: '/kiitos' },
      },
    });

    const sent = await submitQuestion('jyvabroiler');
    expect(sent.mail?.recipients).toBe('Palaute@jyvabroiler.example,toinen@jyvabroiler.example');
    expect(sent.answer.redirect).toBe('/kiitos');
    // Another site's form keeps its defaults.
    expect((await submitQuestion('lihakauppa')).mail?.recipients).toBe('oletus@kattaus.example');

    // The same values again change nothing: no new version, no audit row.
    const audits = (await auditOf(t.app, 'forms.settings.update')).length;
    const again = await put(jyva, 'jyvabroiler', 'question', {
      version: 1,
      successPages: { fi: '/kiitos' },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect((again.json() as FormSettingsRow).version).toBe(1);
    expect((await auditOf(t.app, 'forms.settings.update')).length).toBe(audits);

    // Back to the defaults: the environment's values apply again.
    const reset = await put(jyva, 'jyvabroiler', 'question', {
      version: 1,
      recipients: null,
      successPages: { fi: null },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toMatchObject({
      version: 2,
      recipients: {
        isDefault: true,
        addresses: ['ymparisto@kattaus.example', 'laatu@kattaus.example'],
      },
      successPages: [{ lang: 'fi', path: null, isDefault: true }],
    });
    const after = await submitQuestion('jyvabroiler');
    expect(after.mail?.recipients).toBe('ymparisto@kattaus.example,laatu@kattaus.example');
    expect(after.answer.redirect).toBeUndefined();
    const [last] = await t.app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'forms.settings.update'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(last?.changes).toEqual({
      recipients: {
        before: ['Palaute@jyvabroiler.example', 'toinen@jyvabroiler.example'],
        after: null,
      },
      'successPages.fi': { before: '/kiitos', after: null },
    });
  });

  it('refuses bad addresses, too many, and pages the site does not have, naming each field', async () => {
    const audits = (await auditOf(t.app, 'forms.settings.update')).length;
    const bad = await put(jyva, 'jyvabroiler', 'question', {
      version: 0,
      recipients: ['hyva@kattaus.example', 'ei-osoite', ''],
      successPages: { fi: '/kiitos?x=1' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(bad.json().errors).toEqual({
      'recipients.1': 'admin.error.email',
      'recipients.2': 'admin.error.required',
      'successPages.fi': 'admin.error.invalid',
    });
    const many = await put(jyva, 'jyvabroiler', 'question', {
      version: 0,
      recipients: Array.from({ length: 11 }, (_, i) => `r${i}@kattaus.example`),
    });
    expect(many.statusCode).toBe(400);
    expect(many.json().errors).toEqual({ recipients: 'admin.error.tooManyRecipients' });
    const empty = await put(jyva, 'jyvabroiler', 'question', { version: 0, recipients: [] });
    expect(empty.json().errors).toEqual({ recipients: 'admin.error.required' });
    // A page of another site, or of another language, is no page here.
    const missing = await put(jyva, 'jyvabroiler', 'question', {
      version: 0,
      successPages: { fi: '/ota-yhteytta/kiitos' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual({ 'successPages.fi': 'admin.error.noSuchPage' });
    const otherLang = await put(admin, 'sibylla', 'question', {
      version: 0,
      successPages: { sv: '/ota-yhteytta/kiitos' },
    });
    expect(otherLang.json().errors).toEqual({ 'successPages.sv': 'admin.error.noSuchPage' });
    // A language the site does not have.
    const noLang = await put(admin, 'jyvabroiler', 'question', {
      version: 0,
      successPages: { sv: '/kiitos' },
    });
    expect(noLang.json().errors).toEqual({ 'successPages.sv': 'admin.error.invalid' });
    expect(await t.app.db.select().from(formSettings)).toEqual([]);
    expect((await auditOf(t.app, 'forms.settings.update')).length).toBe(audits);
  });

  it('refuses a change on a version someone changed since: 409 with the newest', async () => {
    const first = await put(jyva, 'jyvabroiler', 'complaint', {
      version: 0,
      recipients: ['eka@kattaus.example'],
    });
    expect(first.statusCode, first.body).toBe(200);
    const audits = (await auditOf(t.app, 'forms.settings.update')).length;
    const stale = await put(admin, 'jyvabroiler', 'complaint', {
      version: 0,
      recipients: ['toka@kattaus.example'],
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      type: '/problems/stale-version',
      current: {
        form: 'complaint',
        version: 1,
        recipients: { addresses: ['eka@kattaus.example'], isDefault: false },
      },
    });
    const older = await put(admin, 'jyvabroiler', 'complaint', {
      version: 7,
      recipients: ['toka@kattaus.example'],
    });
    expect(older.statusCode).toBe(409);
    expect((await auditOf(t.app, 'forms.settings.update')).length).toBe(audits);
    const [row] = await t.app.db.select().from(formSettings);
    expect(row?.recipients).toEqual(['eka@kattaus.example']);
    // Saved again on the newest version, it goes through.
    const retried = await put(admin, 'jyvabroiler', 'complaint', {
      version: 1,
      recipients: ['toka@kattaus.example'],
    });
    expect(retried.statusCode, retried.body).toBe(200);
    expect((retried.json() as FormSettingsRow).version).toBe(2);
  });

  it('keeps each staff member to their sites and languages', async () => {
    const list = await jyva.visitor.get(FORM_SETTINGS_API);
    expect(list.statusCode).toBe(200);
    expect((list.json() as FormSettingsSites).sites).toEqual([
      { id: 'jyvabroiler', name: expect.any(String), langs: ['fi'] },
    ]);
    // Another site: neither read nor changed.
    expect((await jyva.visitor.get(`${FORM_SETTINGS_API}/sibylla`)).statusCode).toBe(403);
    const other = await put(jyva, 'sibylla', 'question', {
      version: 0,
      recipients: ['vieras@kattaus.example'],
    });
    expect(other.statusCode).toBe(403);
    expect((await jyva.visitor.get(`${FORM_SETTINGS_API}/ei-ole`)).statusCode).toBe(404);

    // Sibylla in Finnish only: the Finnish success page, not the Swedish one nor the recipients
    // (they get every language's mail).
    const fi = await siteSettings(sibyllaFi, 'sibylla');
    expect(fi.site.langs).toEqual(['fi']);
    expect(rowOf(fi, 'question').recipients.editable).toBe(false);
    expect(rowOf(fi, 'question').successPages).toEqual([
      {
        lang: 'fi',
        path: '/oletus-kiitos',
        url: '/oletus-kiitos',
        isDefault: true,
        defaultUrl: '/oletus-kiitos',
      },
    ]);
    const recipients = await put(sibyllaFi, 'sibylla', 'question', {
      version: 0,
      recipients: ['sibylla@kattaus.example'],
    });
    expect(recipients.statusCode).toBe(403);
    const sv = await put(sibyllaFi, 'sibylla', 'question', {
      version: 0,
      successPages: { sv: '/kontakta-oss/tack' },
    });
    expect(sv.statusCode).toBe(403);
    const page = await put(sibyllaFi, 'sibylla', 'question', {
      version: 0,
      successPages: { fi: '/ota-yhteytta/kiitos' },
    });
    expect(page.statusCode, page.body).toBe(200);
    expect(await t.app.db.select().from(formSettings)).toHaveLength(1);

    // An editor (no forms.settings) and nobody signed in.
    const editor = await enrolledStaff(t.app, [{ role: 'editor', sites: null, langs: null }]);
    expect((await editor.visitor.get(FORM_SETTINGS_API)).statusCode).toBe(403);
    expect((await editor.visitor.get(`${FORM_SETTINGS_API}/jyvabroiler`)).statusCode).toBe(403);
    expect((await visitor.get(`${FORM_SETTINGS_API}/jyvabroiler`)).statusCode).toBe(401);
  });

  it('sends each language version of a site to its own success page', async () => {
    const saved = await put(admin, 'sibylla', 'question', {
      version: 0,
      // The Swedish page given with its prefix is kept without it.
      successPages: { fi: '/ota-yhteytta/kiitos', sv: '/sv/kontakta-oss/tack' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const defaultUrl = '/oletus-kiitos';
    expect((saved.json() as FormSettingsRow).successPages).toEqual([
      {
        lang: 'fi',
        path: '/ota-yhteytta/kiitos',
        url: '/ota-yhteytta/kiitos',
        isDefault: false,
        defaultUrl,
      },
      {
        lang: 'sv',
        path: '/kontakta-oss/tack',
        url: '/sv/kontakta-oss/tack',
        isDefault: false,
        defaultUrl,
      },
      { lang: 'en', path: defaultUrl, url: defaultUrl, isDefault: true, defaultUrl },
    ]);
    expect((await submitQuestion('sibylla')).answer.redirect).toBe('/ota-yhteytta/kiitos');
    expect((await submitQuestion('sibylla', 'sv')).answer.redirect).toBe('/sv/kontakta-oss/tack');
    // The submission is kept in the page's language.
    const [swedish] = await t.app.db
      .select({ lang: formSubmissions.lang })
      .from(formSubmissions)
      .orderBy(desc(formSubmissions.createdAt))
      .limit(1);
    expect(swedish?.lang).toBe('sv');
    expect((await submitQuestion('sibylla', 'en')).answer.redirect).toBe('/oletus-kiitos');
    // A language the site does not have is its first.
    expect((await submitQuestion('jyvabroiler', 'sv')).answer.redirect).toBeUndefined();
  });
});
