import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  postForm,
  registerOnPages,
  shopTestApp,
  shopVisitorFrom,
} from '../../../../tests/helpers/shop.ts';
import type { Visitor } from '../../../../tests/helpers/visitor.ts';
import { openText } from '../../forms/crypto.server.ts';
import { mailOutbox } from '../../forms/tables.ts';
import { customers } from '../tables.ts';

/**
 * The account pages without script (decision 025): plain forms with the anti-forgery field, the
 * failed-submit pattern (summary, title prefixed, typed values kept but passwords), and the
 * header's login and 'Oma tili' links leading to them.
 */

const PASSWORD = 'oikea-salasana-1';
const t = shopTestApp();
let n = 0;

async function visitor(): Promise<Visitor> {
  n += 1;
  return shopVisitorFrom(t, `10.9.0.${n}`);
}

const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
/** The error summary's opening tag: it must take the focus on arrival, also without script. */
const summaryTag = (html: string) => /<div[^>]*id="error-summary"[^>]*>/.exec(html)?.[0] ?? '';

describe('account pages', () => {
  it('registers, lands on Oma tili, logs out; the header links follow', async () => {
    const v = await visitor();
    const home = await v.get('/');
    expect(home.body).toContain('href="/kirjaudu"');
    const page = await v.get('/rekisteroidy');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('name="_xsrf"');
    const res = await registerOnPages(v, { email: 'sivu1@example.fi', password: PASSWORD });
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe('/oma-tili');
    const account = await v.get('/oma-tili');
    expect(account.statusCode).toBe(200);
    expect(account.body).toContain('sivu1@example.fi');
    expect(account.body).toContain('Sinulla ei ole vielä tilauksia.');
    expect(account.body).toContain('href="/oma-tili"');
    const out = await postForm(v, '/oma-tili', { action: 'logout' });
    expect(out.statusCode).toBe(303);
    const after = await v.get('/oma-tili');
    expect(after.statusCode).toBe(303);
    expect(after.headers.location).toBe('/kirjaudu');
  });

  it('a failed login comes back with a summary, the title prefixed, the address kept and no password', async () => {
    const v = await visitor();
    await registerOnPages(v, { email: 'sivu2@example.fi', password: PASSWORD });
    await postForm(v, '/oma-tili', { action: 'logout' });
    const w = await visitor();
    await w.get('/kirjaudu');
    const res = await postForm(w, '/kirjaudu', {
      email: 'sivu2@example.fi',
      password: 'väärä-salasana',
    });
    expect(res.statusCode).toBe(401);
    expect(title(res.body)).toMatch(/^Virhe: Kirjaudu sisään/);
    expect(res.body).toContain('id="error-summary"');
    expect(res.body).toContain('Sähköpostiosoite tai salasana on väärin.');
    expect(res.body).toContain('value="sivu2@example.fi"');
    expect(res.body).not.toContain('väärä-salasana');
    const ok = await postForm(w, '/kirjaudu', { email: 'SIVU2@example.fi', password: PASSWORD });
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe('/oma-tili');
  });

  it('refuses a form without the right anti-forgery field and logs nobody in', async () => {
    const v = await visitor();
    await registerOnPages(v, { email: 'sivu3@example.fi', password: PASSWORD });
    await postForm(v, '/oma-tili', { action: 'logout' });
    const w = await visitor();
    const res = await postForm(
      w,
      '/kirjaudu',
      { email: 'sivu3@example.fi', password: PASSWORD },
      'x',
    );
    expect(res.statusCode).toBe(403);
    expect((await w.get('/oma-tili')).statusCode).toBe(303);
  });

  it("saves the address on Oma tili; a wrong phone shows 'Väärän muotoinen puhelinnumero' and keeps the typing", async () => {
    const v = await visitor();
    await registerOnPages(v, { email: 'sivu4@example.fi', password: PASSWORD });
    const fields = {
      action: 'address',
      firstName: 'Matti',
      lastName: 'Virtanen',
      streetAddress: 'Hämeenkatu 5',
      postalCode: '33100',
      city: 'Tampere',
      phoneCountryCode: '+358',
      phoneNumber: 'abc',
      isPrivateCustomer: 'on',
    };
    const bad = await postForm(v, '/oma-tili', fields);
    expect(bad.statusCode).toBe(400);
    expect(title(bad.body)).toMatch(/^Virhe: Oma tili/);
    expect(bad.body).toContain('Väärän muotoinen puhelinnumero');
    expect(bad.body).toContain('value="Hämeenkatu 5"');
    const [row] = await t.app.db
      .select()
      .from(customers)
      .where(eq(customers.email, 'sivu4@example.fi'));
    expect(row?.deliveryAddress).toBeNull();
    const good = await postForm(v, '/oma-tili', { ...fields, phoneNumber: '040 765 4321' });
    expect(good.statusCode, good.body).toBe(303);
    const page = await v.get(good.headers.location as string);
    expect(page.body).toContain('Osoite on tallennettu.');
    expect(page.body).toContain('33100 Tampere');
  });

  it('sends a reset link from the page and sets a new password with it', async () => {
    const v = await visitor();
    await registerOnPages(v, { email: 'sivu5@example.fi', password: PASSWORD });
    const w = await visitor();
    const sent = await postForm(w, '/salasana', { email: 'sivu5@example.fi' });
    expect(sent.statusCode).toBe(200);
    expect(sent.body).toContain('Jos osoitteella on tili');
    const unknown = await postForm(w, '/salasana', { email: 'ei-tilia@example.fi' });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toContain('Jos osoitteella on tili');
    // The newest mail: the account's confirmation mail went to the address before it.
    const [mail] = await t.app.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.recipients, 'sivu5@example.fi'))
      .orderBy(desc(mailOutbox.id));
    const body = openText(t.app.config.forms.encryptionKey, mail?.sealedBody ?? '');
    const link = /http:\/\/lihakauppa\.localhost[^\s]*\/salasana\/uusi\?token=([\w-]{43})/.exec(
      body,
    );
    expect(link, body).not.toBeNull();
    const token = link?.[1] ?? '';
    const resetPage = await w.get(`/salasana/uusi?token=${token}`);
    expect(resetPage.body).toContain(`value="${token}"`);
    const done = await postForm(w, '/salasana/uusi', { token, password: 'uusi-salasana-2' });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Salasana on vaihdettu.');
    const again = await postForm(w, '/salasana/uusi', { token, password: 'kolmas-salasana' });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('Salasanan vaihtolinkki on vanhentunut tai jo käytetty.');
    // Every link of the summary leads to a field on the page (the token has no field to go to).
    const targets = [...again.body.matchAll(/href="#(field-[^"]+)"/g)].map((m) => m[1]);
    for (const target of targets) expect(again.body).toContain(`id="${target}"`);
    expect(targets).not.toContain('field-token');
  });

  it('every refused account form comes back with the summary focused, the title prefixed and the typing kept but passwords', async () => {
    const v = await visitor();
    await v.get('/rekisteroidy');
    const registered = await postForm(v, '/rekisteroidy', {
      email: 'ei-osoite',
      password: 'salainen-lyhyt',
      paluu: '/kassa?postinumero=33100',
    });
    expect(registered.statusCode).toBe(400);
    expect(summaryTag(registered.body)).toContain('autofocus');
    expect(title(registered.body)).toMatch(/^Virhe: /);
    expect(registered.body).toContain('value="ei-osoite"');
    expect(registered.body).not.toContain('salainen-lyhyt');
    expect(registered.body).toContain('value="/kassa?postinumero=33100"');

    const login = await postForm(v, '/kirjaudu', { email: '', password: 'salainen-2' });
    expect(login.statusCode).toBe(400);
    expect(summaryTag(login.body)).toContain('autofocus');
    expect(title(login.body)).toMatch(/^Virhe: Kirjaudu sisään/);
    expect(login.body).not.toContain('salainen-2');

    const resetRequest = await postForm(v, '/salasana', { email: 'ei-osoite-2' });
    expect(resetRequest.statusCode).toBe(400);
    expect(summaryTag(resetRequest.body)).toContain('autofocus');
    expect(title(resetRequest.body)).toMatch(/^Virhe: /);
    expect(resetRequest.body).toContain('value="ei-osoite-2"');

    const reset = await postForm(v, '/salasana/uusi', { token: 'x'.repeat(43), password: 'a' });
    expect(reset.statusCode).toBe(400);
    expect(summaryTag(reset.body)).toContain('autofocus');
    expect(title(reset.body)).toMatch(/^Virhe: /);

    await registerOnPages(v, { email: 'sivu6@example.fi', password: PASSWORD });
    const address = await postForm(v, '/oma-tili', {
      action: 'address',
      firstName: 'Maija',
      lastName: '',
      streetAddress: 'Kauppakatu 1',
      postalCode: '1',
      city: 'Tampere',
      phoneCountryCode: '+358',
      phoneNumber: '040 123 4567',
      isPrivateCustomer: 'on',
    });
    expect(address.statusCode).toBe(400);
    expect(summaryTag(address.body)).toContain('autofocus');
    expect(title(address.body)).toMatch(/^Virhe: Oma tili/);
    expect(address.body).toContain('value="Kauppakatu 1"');
    // Only one element takes the focus on arrival.
    expect(address.body.match(/autofocus/gi)?.length).toBe(1);
  });

  it('is not on other sites', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/kirjaudu',
      headers: { host: 'sibylla.localhost' },
    });
    expect(res.statusCode).toBe(404);
  });
});
