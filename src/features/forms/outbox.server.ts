import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { createTransport } from 'nodemailer';
import type { Database } from '../../db/client.ts';
import { emailHash } from '../../server/email-hash.ts';
import { startJob } from '../../server/jobs.ts';
import { openText, sealText } from './crypto.server.ts';
import { mailOutbox } from './tables.ts';

/** What the worker needs of a mail transport (nodemailer's, or a test double). */
export interface MailTransport {
  sendMail(mail: { from: string; to: string; subject: string; text: string }): Promise<unknown>;
}

type Writer = Pick<Database, 'insert'>;

/**
 * Puts a mail in the outbox (its body sealed with the forms key, as the forms' own mails), in the
 * caller's transaction when given one; the worker sends it. For other features' mails, such as
 * the shop's password reset links. The row keeps the keyed hash of the address of the person the
 * mail is about (decision 159): `about` when the mail goes to someone else (the shop's copy of an
 * order names the shopper), the recipient otherwise.
 */
export async function enqueueMail(
  db: Writer,
  key: Buffer,
  mail: { to: string; subject: string; text: string; submissionId?: string; about?: string },
): Promise<void> {
  await db.insert(mailOutbox).values({
    // A reply about a form submission goes with it when the submission is deleted.
    submissionId: mail.submissionId ?? null,
    recipients: mail.to,
    subject: mail.subject,
    sealedBody: sealText(key, mail.text),
    emailHash: emailHash(key, mail.about ?? mail.to),
  });
}

const BATCH = 10;
const LEASE_SECONDS = 300;
export const MAX_ATTEMPTS = 12;
const POLL_MS = 15_000;

/** 1 min, 2, 4, … capped at 6 h. */
export function backoffSeconds(attempts: number): number {
  return Math.min(60 * 2 ** Math.max(0, attempts - 1), 6 * 3600);
}

/**
 * Sends the mails that are due. Rows are leased (their next attempt moved forward) with
 * `FOR UPDATE SKIP LOCKED`, so several processes never send the same mail at once; a failure
 * is retried with back-off and given up after MAX_ATTEMPTS.
 */
export async function sendDueMails(
  db: Database,
  transport: MailTransport,
  options: { from: string; key: Buffer },
): Promise<{ sent: number; failed: number }> {
  const due = (await db.execute(sql`
    update ${mailOutbox} set next_attempt_at = now() + make_interval(secs => ${LEASE_SECONDS})
    where id in (
      select id from ${mailOutbox}
      where sent_at is null and failed_at is null and next_attempt_at <= now()
      order by id limit ${BATCH} for update skip locked)
    returning id, recipients, subject, sealed_body, attempts`)) as unknown as {
    rows: {
      id: number;
      recipients: string;
      subject: string;
      sealed_body: string;
      attempts: number;
    }[];
  };
  let sent = 0;
  let failed = 0;
  for (const row of due.rows) {
    try {
      await transport.sendMail({
        from: options.from,
        to: row.recipients,
        subject: row.subject,
        text: openText(options.key, row.sealed_body),
      });
      await db
        .update(mailOutbox)
        .set({ sentAt: new Date(), lastError: null })
        .where(eq(mailOutbox.id, row.id));
      sent++;
    } catch (error) {
      failed++;
      const attempts = row.attempts + 1;
      await db
        .update(mailOutbox)
        .set({
          attempts,
          lastError: String((error as Error).message ?? error).slice(0, 500),
          nextAttemptAt: new Date(Date.now() + backoffSeconds(attempts) * 1000),
          ...(attempts >= MAX_ATTEMPTS ? { failedAt: new Date() } : {}),
        })
        .where(eq(mailOutbox.id, row.id));
    }
  }
  return { sent, failed };
}

/**
 * Polls the outbox while SMTP is configured; without it mails wait in the outbox. One process at
 * a time polls (`startJob`); the claim above keeps a mail from going twice even when two do.
 */
export function startOutboxWorker(app: FastifyInstance): void {
  const { smtpUrl, mailFrom, encryptionKey } = app.config.forms;
  if (!smtpUrl) return;
  const transport = createTransport(smtpUrl);
  startJob(app, {
    name: 'outbox',
    everyMs: POLL_MS,
    run: async (db) =>
      (await sendDueMails(db, transport, { from: mailFrom, key: encryptionKey })).sent,
    doneMessage: 'outbox: mails sent',
  });
  app.addHook('onClose', async () => {
    transport.close?.();
  });
}
