import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import {
  type Enrolled,
  enrolledStaff,
  lastAudit,
  STAFF_PASSWORD,
} from '../../../tests/helpers/staff.ts';
import { sealText } from '../forms/crypto.server.ts';
import { formSubmissions } from '../forms/tables.ts';
import { INBOX_API } from './schemas.ts';

/**
 * The inbox's CSV export (decision 137): 1,000 submissions as a spreadsheet reads them (parsed
 * here by csv-parse with `;`), Finnish and Swedish letters intact, cells with separators, quotes
 * and line breaks whole, formulas kept as text; only the grant's rows; re-authentication first.
 */
let t: TestApp;
let service: Enrolled;

beforeAll(async () => {
  t = await createTestApp();
  service = await enrolledStaff(t.app, [
    { role: 'customer-service', sites: ['lihakauppa'], langs: null },
  ]);
  const key = t.app.config.forms.encryptionKey;
  const rows = Array.from({ length: 1001 }, (_, i) => ({
    id: randomUUID(),
    form: 'feedback',
    // The last one is another site's: never exported to this grant.
    siteId: i === 1000 ? 'delise' : 'lihakauppa',
    lang: i === 1000 ? 'sv' : 'fi',
    sealedData: sealText(
      key,
      JSON.stringify({
        Firstname: i === 0 ? 'Åsa-Märta' : `Pätkä ${i}`,
        Lastname: 'Öhman; "Ö"',
        Message: i === 0 ? 'Rivi yksi\nrivi kaksi' : 'Hyvää makkaraa',
        City: i === 1 ? '=HYPERLINK("http://x")' : 'Hämeenlinna',
      }),
    ),
    createdAt: new Date(Date.UTC(2026, 10, 1) + i * 60_000),
    deleteAfter: new Date(Date.UTC(2027, 10, 1)),
  }));
  for (let i = 0; i < rows.length; i += 250) {
    await t.app.db.insert(formSubmissions).values(rows.slice(i, i + 250));
  }
}, 180_000);
afterAll(async () => {
  await t?.close();
});

describe('the inbox export', () => {
  it('gives 1,000 submissions as a Finnish spreadsheet reads them, and writes one audit row', async () => {
    const res = await service.visitor.get(`${INBOX_API}/export.csv?form=feedback`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="lomakeviestit.csv"');
    const bytes = res.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const records = parse(bytes, { bom: true, delimiter: ';', columns: true }) as Record<
      string,
      string
    >[];
    expect(records).toHaveLength(1000);
    expect(records.every((r) => r.site === 'lihakauppa')).toBe(true);
    const first = records.find((r) => r.Firstname === 'Åsa-Märta');
    expect(first).toMatchObject({
      Lastname: 'Öhman; "Ö"',
      Message: 'Rivi yksi\nrivi kaksi',
      City: 'Hämeenlinna',
      form: 'feedback',
      state: 'new',
    });
    expect(records.find((r) => r.Firstname === 'Pätkä 1')?.City).toBe('\'=HYPERLINK("http://x")');
    expect(await lastAudit(t.app)).toMatchObject({
      action: 'submission.export',
      staffId: service.id,
      changes: { export: { after: { form: 'feedback', count: 1000 } } },
    });
  });

  it('asks for the password or a code again when the last is older than the window', async () => {
    await t.app.db.execute(
      sql`update staff_sessions set verified_at = now() - interval '6 minutes' where staff_id = ${service.id}`,
    );
    const res = await service.visitor.get(`${INBOX_API}/export.csv`);
    expect(res.statusCode).toBe(403);
    expect(res.json().type).toBe('/problems/reauth');
    await service.visitor.post('/api/admin/auth/reauth', {
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ password: STAFF_PASSWORD }),
    });
    expect((await service.visitor.get(`${INBOX_API}/export.csv?state=closed`)).statusCode).toBe(
      200,
    );
  });
});
