import { desc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { enrolledStaff, json } from '../../../tests/helpers/staff.ts';
import { twoServersOnPostgres } from '../../../tests/helpers/two-servers.ts';
import { arrive, type Visitor } from '../../../tests/helpers/visitor.ts';
import { solvedCaptcha, validPayload } from '../forms/forms.test-support.ts';
import { forms } from '../forms/forms.ts';
import { mailOutbox } from '../forms/tables.ts';
import { FORM_SETTINGS_API } from './schemas.ts';

/**
 * Decision 170 on PostgreSQL: two servers on one database (each its own pool and LISTEN
 * connection, as two processes have), each having taken a submission and so holding the form
 * settings in memory. A recipient changed through the back office of one is the recipient of the
 * next submission on the other within five seconds, as the outbox shows.
 */
const template = inject('templateDatabase');
const onPostgres = template.engine === 'postgres';
const WITHIN_MS = 5_000;

describe.runIf(onPostgres)('form settings across processes (PostgreSQL)', () => {
  const { apps } = twoServersOnPostgres(template);
  const visitors: Visitor[] = [];

  beforeAll(async () => {
    for (const app of apps) visitors.push(await arrive(app));
  }, 60_000);

  let sent = 0;
  /**
   * Sends the question form on konsernifi through `app`, each time from another address (the
   * forms' rate limit counts per address): the recipients of its mail.
   */
  const send = async (app: FastifyInstance, visitor: Visitor, token: string) => {
    sent += 1;
    const payload = await validPayload('question');
    payload[forms.question.captchaField] = token;
    const response = await visitor.post(forms.question.path, {
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
      remoteAddress: `10.0.${Math.floor(sent / 250)}.${sent % 250}`,
    });
    expect(response.statusCode, response.body).toBe(200);
    const [mail] = await app.db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(1);
    return mail?.recipients;
  };

  it('a recipient changed on one server is mailed by the next submission on the other', async () => {
    const [writer, reader] = apps;
    const [writerVisitor, readerVisitor] = visitors;
    if (!writer || !reader || !writerVisitor || !readerVisitor) throw new Error('two apps');
    const defaults = writer.config.forms.defaultRecipient;
    // Both have taken a submission: each holds the settings without the change.
    expect(await send(writer, writerVisitor, await solvedCaptcha(writer))).toBe(defaults);
    expect(await send(reader, readerVisitor, await solvedCaptcha(reader))).toBe(defaults);
    // Tokens solved beforehand, so the measurement is of the settings, not of the captcha.
    const tokens = await Promise.all(Array.from({ length: 8 }, () => solvedCaptcha(reader)));

    const staff = await enrolledStaff(writer, [{ role: 'admin', sites: null, langs: null }]);
    const changed = await staff.visitor.request(
      'PUT',
      `${FORM_SETTINGS_API}/konsernifi/question`,
      json({ version: 0, recipients: ['uusi@kattaus.example'] }),
    );
    expect(changed.statusCode, changed.body).toBe(200);
    const started = performance.now();
    let recipients: string | undefined;
    for (;;) {
      recipients = await send(reader, readerVisitor, tokens.pop() ?? (await solvedCaptcha(reader)));
      if (recipients === 'uusi@kattaus.example') break;
      if (performance.now() - started > WITHIN_MS) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const took = performance.now() - started;
    console.info(`form recipient changed: mailed by the other server after ${took.toFixed(0)} ms`);
    expect(recipients).toBe('uusi@kattaus.example');
    expect(took).toBeLessThan(WITHIN_MS);
    // And by the writer at once.
    expect(await send(writer, writerVisitor, await solvedCaptcha(writer))).toBe(
      'uusi@kattaus.example',
    );
  }, 60_000);
});
