import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { desc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { arrive, type Visitor } from '../../../tests/helpers/visitor.ts';
import type { FormsConfig } from '../../server/config.ts';
import { loadConfig } from '../../server/config.ts';
import { type FormId, forms } from './forms.ts';
import { formSubmissions } from './tables.ts';

/** Forms settings for tests: fixed keys (nothing written to disk) and a generous rate limit. */
export function testFormsConfig(env: Record<string, string> = {}): FormsConfig {
  return loadConfig({
    NODE_ENV: 'test',
    SESSION_SECRET: 'test-secret-that-is-long-enough-0123456789',
    ALTCHA_HMAC_KEY: 'altcha-test-key-that-is-long-enough-0123456789',
    FORMS_ENCRYPTION_KEY: '11'.repeat(32),
    ALTCHA_MAX_NUMBER: '2000',
    FORMS_RATE_LIMIT: '10000',
    ...env,
  }).forms;
}

/** Solves a real challenge from `GET /api/captcha/challenge`, as the widget does. */
export async function solvedCaptcha(app: FastifyInstance): Promise<string> {
  const response = await app.inject({ method: 'GET', url: '/api/captcha/challenge' });
  return captchaToken(response.json());
}

/** The form field's token for a challenge the server gave: solved as the widget solves it. */
export async function captchaToken(
  challenge: Parameters<typeof solveChallenge>[0]['challenge'],
): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('challenge not solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

export const dataUrl = (mime: string, bytes: Buffer) =>
  `data:${mime};base64,${bytes.toString('base64')}`;

export async function png(width = 8, height = 8): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#c0392b' } })
    .png()
    .toBuffer();
}

export async function jpeg(width = 8, height = 8): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#2980b9' } })
    .jpeg()
    .toBuffer();
}

/** An incompressible PNG of about `bytes` bytes (random pixels, no compression). */
export async function noisePng(bytes: number): Promise<Buffer> {
  const side = Math.ceil(Math.sqrt(bytes / 3));
  const raw = Buffer.alloc(side * side * 3);
  let x = 0x2545f491;
  for (let i = 0; i < raw.length; i += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    raw.writeInt32LE(x | 0, Math.min(i, raw.length - 4));
  }
  return sharp(raw, { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

export const pdf = () =>
  Buffer.from(
    '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
  );

const person = {
  Firstname: 'Maija',
  Lastname: 'Meikäläinen',
  StreetAddress: 'Kauppakatu 1',
  PostalCode: '00100',
  City: 'Helsinki',
  Phone: '0401234567',
  Email: 'maija@example.fi',
  ContactByEmail: true,
  ContactByPhone: false,
  NoContact: false,
  HealthDataProcessingConsent: false,
};

/** A valid payload of each form, without its captcha token. */
export async function validPayload(formId: FormId): Promise<Record<string, unknown>> {
  switch (formId) {
    case 'complaint':
      return {
        Data: {
          ...person,
          Message: 'Paketissa oli muovinpala (noin 2 cm).',
          ProductId: 1,
          ProductName: 'Grillimakkara 400 g',
          BatchNumber: 'L1234',
          ExpirationDate: '2026-05-31',
          PlaceOfPurchase: 'K-Market Kallio',
        },
        Files: [
          { Name: 'kuva.png', Data: dataUrl('image/png', await png()) },
          { Name: 'kuva2.jpg', Data: dataUrl('image/jpeg', await jpeg()) },
        ],
      };
    case 'feedback':
      return {
        Data: { ...person, Message: 'Hyvää makkaraa!', ProductId: 0, ProductName: '' },
        Files: null,
      };
    case 'sponsorship':
      return {
        Data: {
          Subject: 'youth-sports',
          Groupname: 'FC Pallo P12',
          EventDate: '2026-08-15',
          Message: 'Haemme tukea turnausmatkaan.',
          Firstname: 'Pekka',
          Lastname: 'Pelaaja',
          Email: 'pekka@example.fi',
          Phone: '0501234567',
        },
        Files: [{ Name: 'hakemus.pdf', Data: dataUrl('application/pdf', pdf()) }],
      };
    case 'question':
      return { Data: { Message: 'Onko tuote gluteeniton?' } };
    case 'promotional-photo':
      return {
        Data: {
          Email: 'kuvaaja@example.fi',
          FirstName: 'Kalle',
          LastName: 'Kuvaaja',
          Phone: '0451234567',
          MethodOfContact: 'email',
        },
        Files: [{ Name: 'grilli.jpg', Data: dataUrl('image/jpeg', await jpeg()) }],
      };
    case 'brand-contact':
      return {
        Data: {
          Email: 'asiakas@example.fi',
          FirstName: 'Anna',
          LastName: 'Asiakas',
          Phone: '0409876543',
          Message: 'Kiitos hyvistä tuotteista.',
          City: 'Tampere',
          StreetAddress: 'Hämeenkatu 2',
          PostalCode: '33100',
        },
        Files: [],
      };
    case 'expert-question':
      return {
        Data: {
          Subject: 'Kysymys asiantuntijalle',
          FullName: 'Keittiömestari Kokki',
          Company: 'Ravintola Oy',
          Message: 'Miten broileri kypsennetään yhdistelmäuunissa?',
          Email: 'kokki@example.fi',
          Phone: '0401112222',
          CustomerId: '100200300',
        },
        Files: null,
      };
    case 'export-contact':
      return {
        Data: {
          Subject: 'Export contact request',
          FullName: 'Jane Buyer',
          Company: 'Importers Ltd',
          Message: 'We would like a price list.',
          Email: 'jane@example.com',
          Phone: '+44 20 1234 5678',
          ContentId: 12,
          CustomerId: '',
        },
        Files: null,
      };
    case 'sales':
      return {
        firstName: 'Sanna',
        lastName: 'Suurkeittiö',
        email: 'sanna@example.fi',
        phone: '',
        organization: 'Koulukeittiö',
        product: { productId: 0, title: '' },
        message: 'Pyydämme yhteydenottoa.',
        customerNumber: '',
        formType: 'Other',
        contactRequest: 'Email',
      };
    case 'school-material':
      return {
        Data: {
          FirstName: 'Opettaja',
          LastName: 'Opetus',
          School: 'Kallion koulu',
          Region: 'Helsinki',
          Email: 'ope@example.fi',
          Materials: [],
          Message: '',
          Subject: 'Koulumateriaalitilaus',
        },
      };
  }
}

/**
 * A complaint with a PNG and a JPEG attached (named `names`), sent by `visitor` with a solved
 * captcha; answers the response and the payload sent.
 */
export async function sendComplaintWithImages(
  app: FastifyInstance,
  visitor: Visitor,
  images: [Buffer, Buffer],
  names: [string, string] = ['a.png', 'b.jpg'],
) {
  const payload = await validPayload('complaint');
  payload.Files = [
    { Name: names[0], Data: dataUrl('image/png', images[0]) },
    { Name: names[1], Data: dataUrl('image/jpeg', images[1]) },
  ];
  payload.MTCaptchaToken = await solvedCaptcha(app);
  const response = await visitor.post(forms.complaint.path, {
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
  return { response, payload };
}

/**
 * A complaint (with its two pictures) sent through the public form as a visitor of `host` would
 * send it; answers the stored submission's id.
 */
export async function sendComplaint(app: FastifyInstance, host: string): Promise<string> {
  const visitor = await arrive(app, '/', { host });
  const payload = await validPayload('complaint');
  payload.MTCaptchaToken = await solvedCaptcha(app);
  const res = await visitor.post(forms.complaint.path, {
    headers: { host, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
  if (res.statusCode !== 200) throw new Error(`complaint: ${res.statusCode} ${res.body}`);
  const [row] = await app.db
    .select({ id: formSubmissions.id })
    .from(formSubmissions)
    .orderBy(desc(formSubmissions.createdAt))
    .limit(1);
  if (!row) throw new Error('the complaint was not stored');
  return row.id;
}
