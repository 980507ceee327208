import { readdir } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { arrive, type Visitor } from '../../../tests/helpers/visitor.ts';
import { openBytes, openText } from './crypto.server.ts';
import {
  dataUrl,
  pdf,
  png,
  solvedCaptcha,
  testFormsConfig,
  validPayload,
} from './forms.test-support.ts';
import { type FormId, formIds, forms } from './forms.ts';
import { FILE_MAX_BYTES, promotionalPhotoFormSchema, promotionalPhotoPayload } from './schemas.ts';
import { SHOP_PLACE_OF_PURCHASE } from './submissions.server.ts';
import {
  formSubmissionFiles,
  formSubmissions,
  mailOutbox,
  schoolMaterials,
  usedCaptchaTokens,
} from './tables.ts';

let t: TestApp;
let visitor: Visitor;
const formsConfig = testFormsConfig();

beforeAll(async () => {
  t = await createTestApp({ config: { forms: formsConfig } });
  visitor = await arrive(t.app);
  await t.app.db.insert(schoolMaterials).values({
    siteId: 'konsernifi',
    lang: 'fi',
    material: 'Lihan matka pellolta pöytään',
    url: '/koulumateriaali/lihan-matka.pdf',
  });
});
afterAll(async () => {
  await t?.close();
});

async function clearSubmissions() {
  await t.app.db.execute(sql`truncate form_submissions, used_captcha_tokens cascade`);
}
beforeEach(clearSubmissions);

async function payloadOf(formId: FormId, captcha?: string | null) {
  const payload = await validPayload(formId);
  if (formId === 'school-material') {
    (payload.Data as Record<string, unknown>).Materials = ['Lihan matka pellolta pöytään'];
  }
  const token = captcha === undefined ? await solvedCaptcha(t.app) : captcha;
  if (token !== null) payload[forms[formId].captchaField] = token;
  return payload;
}

function post(formId: FormId, payload: unknown, host = 'localhost') {
  return visitor.post(forms[formId].path, {
    headers: { host, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
}

async function stored() {
  const [s] = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(formSubmissions);
  const [f] = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(formSubmissionFiles);
  const [m] = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(mailOutbox);
  const [c] = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(usedCaptchaTokens);
  return { submissions: s?.n, files: f?.n, mails: m?.n, tokens: c?.n };
}

const nothing = { submissions: 0, files: 0, mails: 0, tokens: 0 };

/** Asserts a refusal: 4xx problem+json naming `field`, isSuccess false, nothing stored. */
async function expectRefused(
  response: Awaited<ReturnType<typeof post>>,
  field: string,
  message?: string,
) {
  expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
  expect(response.statusCode).toBeLessThan(500);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = response.json();
  expect(body.isSuccess).toBe(false);
  expect(Object.keys(body.errors ?? {})).toContain(field);
  if (message) expect(body.errors[field]).toBe(message);
  expect(await stored()).toEqual(nothing);
}

const messageField = (formId: FormId) => (formId === 'sales' ? 'message' : 'Data.Message');
/** The promotional photo form has no message. */
const withMessage: readonly FormId[] = formIds.filter((id) => id !== 'promotional-photo');

function setMessage(formId: FormId, payload: Record<string, unknown>, message: string) {
  if (formId === 'sales') payload.message = message;
  else (payload.Data as Record<string, unknown>).Message = message;
}

describe.each(formIds)('POST %s', (formId) => {
  const definition = forms[formId];

  it('stores a valid submission with its files and a mail, and answers isSuccess', async () => {
    const payload = await payloadOf(formId);
    const response = await post(formId, payload);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ isSuccess: true });
    const [row] = await t.app.db.select().from(formSubmissions);
    expect(row?.form).toBe(formId);
    expect(row?.siteId).toBe('konsernifi');
    const data = JSON.parse(openText(formsConfig.encryptionKey, row?.sealedData ?? ''));
    expect(JSON.stringify(data)).not.toContain('captcha');
    expect(row?.sealedData).not.toContain('example');
    const files = await t.app.db.select().from(formSubmissionFiles);
    const sent = (payload.Files as unknown[] | undefined)?.length ?? 0;
    expect(files).toHaveLength(sent);
    for (const file of files) {
      const bytes = await t.app.files.get(file.storageKey);
      expect(bytes).toBeDefined();
      expect(openBytes(formsConfig.encryptionKey, bytes ?? Buffer.alloc(0)).length).toBe(file.size);
    }
    const [mail] = await t.app.db.select().from(mailOutbox);
    expect(mail?.recipients).toBe(formsConfig.defaultRecipient);
    expect(openText(formsConfig.encryptionKey, mail?.sealedBody ?? '')).toContain(row?.id);
  });

  it('refuses missing fields, naming each', async () => {
    const response = await post(formId, { [definition.captchaField]: await solvedCaptcha(t.app) });
    const field = formId === 'sales' ? 'firstName' : 'Data';
    await expectRefused(response, field);
    const payload = await payloadOf(formId);
    if (withMessage.includes(formId)) setMessage(formId, payload, '');
    if (formId === 'school-material' || formId === 'promotional-photo') {
      (payload.Data as Record<string, unknown>).FirstName = '';
      await expectRefused(await post(formId, payload), 'Data.FirstName', 'validation.required');
    } else {
      await expectRefused(await post(formId, payload), messageField(formId));
    }
  });

  // Only the forms with a message field have this test (a skipped test would say nothing).
  if (withMessage.includes(formId))
    it('refuses a too long message and forbidden characters', async () => {
      const max = formId === 'export-contact' ? 1000 : 2000;
      const long = await payloadOf(formId, 'unused');
      setMessage(formId, long, 'a'.repeat(max + 1));
      await expectRefused(await post(formId, long), messageField(formId), 'form.message.tooLong');
      const fits = await payloadOf(formId, 'unused');
      setMessage(formId, fits, `${'ä'.repeat(max - 10)} !?%€/.,:`);
      const fitsAnswer = await post(formId, fits);
      // Only the captcha is wrong, so the message itself passed.
      expect(Object.keys(fitsAnswer.json().errors ?? {})).toEqual([definition.captchaField]);

      const odd = await payloadOf(formId, 'unused');
      setMessage(formId, odd, 'Hei <script>alert(1)</script> & {}');
      const answer = await post(formId, odd);
      await expectRefused(answer, messageField(formId));
      expect(answer.json().errors[messageField(formId)]).toMatch(/^form\.message\.characters/);
    });

  it('refuses a missing, a forged and a reused captcha', async () => {
    await expectRefused(await post(formId, await payloadOf(formId, null)), definition.captchaField);
    const token = await solvedCaptcha(t.app);
    const decoded = JSON.parse(Buffer.from(token, 'base64').toString());
    const key: string = decoded.solution.derivedKey;
    decoded.solution.derivedKey = `${key[0] === '0' ? '1' : '0'}${key.slice(1)}`;
    const forged = Buffer.from(JSON.stringify(decoded)).toString('base64');
    await expectRefused(
      await post(formId, await payloadOf(formId, forged)),
      definition.captchaField,
      'form.captcha.invalid',
    );
    await expectRefused(
      await post(formId, await payloadOf(formId, 'bm90IGEgdG9rZW4=')),
      definition.captchaField,
    );

    const first = await post(formId, await payloadOf(formId, token));
    expect(first.statusCode, first.body).toBe(200);
    await clearSubmissionsKeepingTokens();
    const again = await post(formId, await payloadOf(formId, token));
    expect(again.statusCode).toBe(400);
    expect(again.json().errors[definition.captchaField]).toBe('form.captcha.reused');
    const [count] = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(formSubmissions);
    expect(count?.n).toBe(0);
  });

  it('refuses unknown fields', async () => {
    const payload = await payloadOf(formId, 'unused');
    payload.Extra = 1;
    const response = await post(formId, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().isSuccess).toBe(false);
  });
});

async function clearSubmissionsKeepingTokens() {
  await t.app.db.execute(sql`truncate form_submissions cascade`);
}

describe('files', () => {
  it('refuses a file whose bytes are not of an allowed type, whatever its name says', async () => {
    const pngAsPdf = await payloadOf('sponsorship');
    pngAsPdf.Files = [{ Name: 'hakemus.pdf', Data: dataUrl('application/pdf', await png()) }];
    await expectRefused(await post('sponsorship', pngAsPdf), 'Files.0', 'form.file.wrongType');

    const pdfAsJpeg = await payloadOf('complaint');
    pdfAsJpeg.Files = [
      { Name: 'ok.png', Data: dataUrl('image/png', await png()) },
      { Name: 'kuva.jpg', Data: dataUrl('image/jpeg', pdf()) },
    ];
    await expectRefused(await post('complaint', pdfAsJpeg), 'Files.1', 'form.file.wrongType');

    const textAsImage = await payloadOf('brand-contact');
    textAsImage.Files = [{ Name: 'x.png', Data: dataUrl('image/png', Buffer.from('hello')) }];
    await expectRefused(await post('brand-contact', textAsImage), 'Files.0', 'form.file.wrongType');
  });

  it('refuses too many files', async () => {
    const image = { Name: 'k.png', Data: dataUrl('image/png', await png()) };
    const complaint = await payloadOf('complaint', 'unused');
    complaint.Files = [image, image, image, image];
    await expectRefused(await post('complaint', complaint), 'Files', 'form.file.tooMany');
    const photo = await payloadOf('promotional-photo', 'unused');
    photo.Files = [image, image];
    await expectRefused(await post('promotional-photo', photo), 'Files', 'form.file.tooMany');
    const question = await payloadOf('question', 'unused');
    question.Files = [image];
    await expectRefused(await post('question', question), '_');
  });

  it('refuses a file over 15 MB', async () => {
    const payload = await payloadOf('complaint', 'unused');
    const big = Buffer.alloc(FILE_MAX_BYTES + 1, 1);
    (await png()).copy(big);
    payload.Files = [{ Name: 'iso.png', Data: dataUrl('image/png', big) }];
    await expectRefused(await post('complaint', payload), 'Files.0.Data', 'form.file.tooLarge');
  });

  it('accepts three images of 14 MB in one complaint', async () => {
    const payload = await payloadOf('complaint');
    const big = Buffer.alloc(14 * 1024 * 1024, 7);
    (await png()).copy(big);
    const image = { Name: 'iso.png', Data: dataUrl('image/png', big) };
    payload.Files = [image, image, image];
    const response = await post('complaint', payload);
    expect(response.statusCode, response.body).toBe(200);
    expect((await stored()).files).toBe(3);
  });

  it('commits nothing when the file store fails half-way, and removes what it wrote', async () => {
    const files = t.app.files;
    const put = files.put.bind(files);
    const written: string[] = [];
    let calls = 0;
    files.put = async (key, data) => {
      if (++calls === 2) throw new Error('disk full');
      written.push(key);
      return put(key, data);
    };
    try {
      const response = await post('complaint', await payloadOf('complaint'));
      expect(response.statusCode).toBe(500);
      expect(response.json().isSuccess).toBe(false);
    } finally {
      files.put = put;
    }
    expect(written).toHaveLength(1);
    expect(await files.exists(written[0] ?? '')).toBe(false);
    expect(await stored()).toEqual(nothing);
  });
});

describe('form rules', () => {
  it('asks for the chosen contact method and one method only', async () => {
    const payload = await payloadOf('complaint', 'unused');
    Object.assign(payload.Data as object, {
      ContactByEmail: false,
      ContactByPhone: true,
      Phone: '',
    });
    const response = await post('complaint', payload);
    expect(response.json().errors['Data.Phone']).toBe('validation.required');
    Object.assign(payload.Data as object, { ContactByEmail: false, ContactByPhone: false });
    expect((await post('complaint', payload)).json().errors['Data.ContactMethod']).toBe(
      'validation.required',
    );
    Object.assign(payload.Data as object, { ContactByEmail: true, ContactByPhone: true });
    expect((await post('complaint', payload)).json().errors['Data.ContactMethod']).toBeDefined();
  });

  it('checks e-mail format and the sales form conditions', async () => {
    const sales = await payloadOf('sales', 'unused');
    sales.email = 'sanna@example';
    expect((await post('sales', sales)).json().errors.email).toBe('form.sales.emailInvalid');
    sales.email = '';
    expect((await post('sales', sales)).json().errors.email).toBe('form.sales.required');
    sales.contactRequest = 'Phone';
    expect((await post('sales', sales)).json().errors.phone).toBe('form.sales.required');
    const contact = await payloadOf('brand-contact', 'unused');
    (contact.Data as Record<string, unknown>).Email = 'a@b.info';
    expect((await post('brand-contact', contact)).json().errors['Data.Email']).toBe(
      'form.email.invalid',
    );
  });

  it('requires a product on a complaint but not on feedback', async () => {
    const complaint = await payloadOf('complaint', 'unused');
    Object.assign(complaint.Data as object, { ProductId: 0, ProductName: '' });
    expect((await post('complaint', complaint)).json().errors['Data.ProductName']).toBe(
      'form.product.required',
    );
  });

  it('takes the promotional photo payload as the spec gives it, without the rules box', async () => {
    // Data: Email, FirstName, LastName, Phone, MethodOfContact; Files; MTCaptchaToken (§3).
    const payload = await payloadOf('promotional-photo');
    expect(Object.keys(payload.Data as object).sort()).toEqual([
      'Email',
      'FirstName',
      'LastName',
      'MethodOfContact',
      'Phone',
    ]);
    const response = await post('promotional-photo', payload);
    expect(response.statusCode, response.body).toBe(200);
    const [row] = await t.app.db.select().from(formSubmissions);
    expect(JSON.parse(openText(formsConfig.encryptionKey, row?.sealedData ?? ''))).toEqual(
      payload.Data,
    );
    // The form itself still asks for the rules box, and leaves it out of what it sends.
    const form = { ...payload, Data: { ...(payload.Data as object), AcceptRules: false } };
    expect(promotionalPhotoFormSchema.safeParse(form).error?.issues).toEqual([
      expect.objectContaining({ path: ['Data', 'AcceptRules'], message: 'validation.required' }),
    ]);
    const accepted = promotionalPhotoFormSchema.parse({
      ...form,
      Data: { ...form.Data, AcceptRules: true },
    });
    expect(promotionalPhotoPayload(accepted)).toEqual(payload);
  });

  it.each([
    ['expert-question', 'Data.CustomerId'],
    ['export-contact', 'Data.CustomerId'],
    ['sales', 'customerNumber'],
  ] as const)(
    'takes a %s customer number empty or as a numeric code of 7 to 12 digits',
    async (formId, field) => {
      const set = (payload: Record<string, unknown>, value: string) => {
        if (formId === 'sales') payload.customerNumber = value;
        else (payload.Data as Record<string, unknown>).CustomerId = value;
      };
      for (const bad of ['123456', '1234567890123', '12345a7', 'A-1001', '1234 567', '+1234567']) {
        const payload = await payloadOf(formId, 'unused');
        set(payload, bad);
        await expectRefused(await post(formId, payload), field, 'form.customerId.invalid');
      }
      for (const good of ['', '1234567', '123456789012', ' 1234567 ']) {
        const payload = await payloadOf(formId);
        set(payload, good);
        const response = await post(formId, payload);
        expect(response.statusCode, `${good}: ${response.body}`).toBe(200);
      }
    },
  );

  it('fixes the place of purchase on the meat shop', async () => {
    const payload = await payloadOf('complaint');
    const response = await post('complaint', payload, 'lihakauppa.localhost');
    expect(response.statusCode, response.body).toBe(200);
    const [row] = await t.app.db.select().from(formSubmissions);
    const data = JSON.parse(openText(formsConfig.encryptionKey, row?.sealedData ?? ''));
    expect(data.PlaceOfPurchase).toBe(SHOP_PLACE_OF_PURCHASE);
    expect(row?.siteId).toBe('lihakauppa');
  });

  it('refuses school materials the site does not have', async () => {
    const payload = await payloadOf('school-material');
    (payload.Data as Record<string, unknown>).Materials = ['Keksitty'];
    await expectRefused(await post('school-material', payload), 'Data.Materials.0');
  });

  it('refuses without the anti-forgery token', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: forms.question.path,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(await payloadOf('question')),
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().isSuccess).toBe(false);
  });
});

describe('captcha challenge', () => {
  it('gives a fresh signed challenge each time, never cached', async () => {
    const a = await t.app.inject({ method: 'GET', url: '/api/captcha/challenge' });
    const b = await t.app.inject({ method: 'GET', url: '/api/captcha/challenge' });
    expect(a.headers['cache-control']).toBe('no-store');
    expect(a.json().signature).toBeTruthy();
    expect(a.json().parameters.nonce).not.toBe(b.json().parameters.nonce);
  });
});

it('leaves no files behind after refusals', async () => {
  const dir = (t.app.files as unknown as { root: string }).root;
  const entries = await readdir(dir, { recursive: true }).catch(() => []);
  const leftovers = entries.filter((e) => String(e).endsWith('.tmp'));
  expect(leftovers).toEqual([]);
});
