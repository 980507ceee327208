import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import { emailHash, looksLikeEmail, normaliseEmail } from '../../server/email-hash.ts';
import { startJob } from '../../server/jobs.ts';
import { openText } from './crypto.server.ts';
import { submitterAddress } from './submissions.server.ts';
import { formSubmissions, mailOutbox } from './tables.ts';

/**
 * Fills the keyed address hash (decision 159) of the rows written before it was kept (migration
 * 0033): each submission's from its opened data, each mail's from its submission's address, or
 * else from the first address its opened body names that is not a recipient (the shop's copy of
 * an order names the shopper), or else from its recipient. A row without any address keeps a
 * null hash and is looked at again by the next run; rows written since carry their hash already.
 */

const BATCH = 200;

export interface BackfillCount {
  submissions: number;
  mails: number;
}

export async function backfillEmailHashes(db: Database, key: Buffer): Promise<BackfillCount> {
  return {
    submissions: await backfillSubmissions(db, key),
    mails: await backfillMails(db, key),
  };
}

async function backfillSubmissions(db: Database, key: Buffer): Promise<number> {
  let filled = 0;
  let after = '';
  for (;;) {
    const rows = await db
      .select({ id: formSubmissions.id, sealed: formSubmissions.sealedData })
      .from(formSubmissions)
      .where(and(isNull(formSubmissions.emailHash), gt(formSubmissions.id, after)))
      .orderBy(asc(formSubmissions.id))
      .limit(BATCH);
    for (const row of rows) {
      const address = submitterAddress(JSON.parse(openText(key, row.sealed)));
      if (!address) continue;
      await db
        .update(formSubmissions)
        .set({ emailHash: emailHash(key, address) })
        .where(and(eq(formSubmissions.id, row.id), isNull(formSubmissions.emailHash)));
      filled++;
    }
    if (rows.length < BATCH) return filled;
    after = rows[rows.length - 1]?.id ?? after;
  }
}

const ADDRESS_IN_TEXT = /[^\s@,;:<>()"']+@[^\s@,;:<>()"']+\.[^\s@,;:<>()"']+/g;

/** The person a mail is about: someone its body names other than its recipients, or them. */
function mailSubject(recipients: string, body: string): string | null {
  const to = recipients.split(',').map((r) => r.trim());
  const sent = new Set(to.map(normaliseEmail));
  const named = [...body.matchAll(ADDRESS_IN_TEXT)].map((m) => m[0].replace(/\.$/, ''));
  const other = named.find((address) => !sent.has(normaliseEmail(address)));
  if (other) return other;
  const recipient = to.find(looksLikeEmail);
  return recipient ?? null;
}

async function backfillMails(db: Database, key: Buffer): Promise<number> {
  let filled = 0;
  let after = 0;
  for (;;) {
    const rows = await db
      .select({
        id: mailOutbox.id,
        recipients: mailOutbox.recipients,
        sealed: mailOutbox.sealedBody,
        submissionHash: formSubmissions.emailHash,
        submissionId: mailOutbox.submissionId,
      })
      .from(mailOutbox)
      .leftJoin(formSubmissions, eq(formSubmissions.id, mailOutbox.submissionId))
      .where(and(isNull(mailOutbox.emailHash), gt(mailOutbox.id, after)))
      .orderBy(asc(mailOutbox.id))
      .limit(BATCH);
    for (const row of rows) {
      let hash = row.submissionHash;
      if (!hash && !row.submissionId) {
        const address = mailSubject(row.recipients, openText(key, row.sealed));
        hash = address ? emailHash(key, address) : null;
      }
      if (!hash) continue;
      await db
        .update(mailOutbox)
        .set({ emailHash: hash })
        .where(and(eq(mailOutbox.id, row.id), isNull(mailOutbox.emailHash)));
      filled++;
    }
    if (rows.length < BATCH) return filled;
    after = rows[rows.length - 1]?.id ?? after;
  }
}

/**
 * Runs the backfill once the app is ready and then daily, in one process at a time: after the
 * first run only rows without an address are looked at again.
 */
export function startEmailHashBackfill(app: FastifyInstance): void {
  startJob(app, {
    name: 'email-hash-backfill',
    everyMs: 24 * 60 * 60 * 1000,
    run: async (db) => {
      const { submissions, mails } = await backfillEmailHashes(db, app.config.forms.encryptionKey);
      return submissions + mails;
    },
    doneMessage: 'forms: address hashes filled',
  });
}
