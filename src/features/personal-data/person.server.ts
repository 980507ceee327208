import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database, Transaction } from '../../db/client.ts';
import { emailHash, normaliseEmail } from '../../server/email-hash.ts';
import { Conflict, Forbidden } from '../../server/errors.ts';
import type { PersonRecord, PersonSubject } from '../../server/personal-data.ts';
import {
  eraseOutboxMails,
  eraseSubmissions,
  findOutboxMails,
  findSubmissions,
  openBytes,
  submissionFiles,
} from '../forms/index.server.ts';
import { heldSubmissions, submissionTimelines } from '../inbox/index.server.ts';
import {
  anonymiseOrders,
  eraseCustomerAccounts,
  eraseReviews,
  findCustomerAccounts,
  findOrders,
  findReviews,
} from '../shop/index.server.ts';
import { type Actor, actorOf, recordAudit } from '../staff/index.server.ts';
import { type AccessGrant, can, type Permission } from '../staff/index.ts';
import {
  eraseCampaignEntries,
  eraseSubscriptions,
  findCampaignEntries,
  findSubscriptions,
} from '../subscriptions/index.server.ts';
import { deleteQueuedFiles, queueFileDeletions } from './file-deletions.server.ts';
import {
  type Erased,
  type EraseRequest,
  type FoundRecord,
  PERSON_STORES,
  type PersonFound,
  type PersonStore,
  type StoreCounts,
} from './schemas.ts';
import { safeEntryName, type ZipEntry, zipArchive } from './zip.server.ts';

/**
 * Personal-data requests (GDPR arts. 15 and 17, decision 159): one person found by their address
 * in the seven stores (customer accounts, orders, form submissions, subscriptions, campaign
 * entries, reviews and the outbox; sealed rows through the keyed hash beside them), limited to
 * the stores' rows on the sites and languages the staff member's grants reach; exported as one
 * ZIP archive; erased in one transaction, each step written to the audit log under the address's
 * hash (never the address), the files deleted from the file store after the commit.
 */

type Stores = Record<PersonStore, PersonRecord[]>;
type Reader = Pick<Database, 'select'>;

function subjectOf(request: FastifyRequest, email: string): PersonSubject {
  return {
    address: normaliseEmail(email),
    hash: emailHash(request.server.config.forms.encryptionKey, email),
  };
}

function grantsOf(request: FastifyRequest): readonly AccessGrant[] {
  if (!request.staff) throw new Forbidden();
  return request.staff.grants;
}

/** Every store's rows about the person, whatever the grants. */
async function collect(
  request: FastifyRequest,
  db: Reader,
  subject: PersonSubject,
): Promise<Stores> {
  const key = request.server.config.forms.encryptionKey;
  const customers = await findCustomerAccounts(db, subject);
  const accountIds = customers.map((c) => c.id);
  return {
    customers,
    orders: await findOrders(db, subject, accountIds),
    submissions: await findSubmissions(db, key, subject),
    subscriptions: await findSubscriptions(db, subject),
    campaignEntries: await findCampaignEntries(db, subject),
    reviews: await findReviews(db, subject, accountIds, request.server.config.sessionSecret),
    outbox: await findOutboxMails(db, key, subject),
  };
}

/** The rows on the sites and languages the grants give `permission` for. */
function within(stores: Stores, grants: readonly AccessGrant[], permission: Permission): Stores {
  const may = (r: PersonRecord) =>
    can(grants, permission, { siteId: r.siteId ?? undefined, lang: r.lang ?? undefined });
  return Object.fromEntries(
    PERSON_STORES.map((store) => [store, stores[store].filter(may)]),
  ) as Stores;
}

const countsOf = (stores: Stores): StoreCounts =>
  Object.fromEntries(PERSON_STORES.map((s) => [s, stores[s].length])) as StoreCounts;

/** The submissions on legal hold, and the mails that go with them. */
async function heldOf(db: Reader, stores: Stores): Promise<Set<string>> {
  const held = await heldSubmissions(
    db,
    stores.submissions.map((s) => s.id),
  );
  const mails = stores.outbox.filter((m) => held.has(String(m.data.submissionId ?? '')));
  return new Set([
    ...[...held].map((id) => `submissions:${id}`),
    ...mails.map((m) => `outbox:${m.id}`),
  ]);
}

/** What an erasure would take now: the erase grants' rows, less what a legal hold keeps. */
function erasable(stores: Stores, held: Set<string>): Stores {
  return Object.fromEntries(
    PERSON_STORES.map((store) => [
      store,
      stores[store].filter((r) => !held.has(`${store}:${r.id}`)),
    ]),
  ) as Stores;
}

const personAudit = (subject: PersonSubject) => ({
  subjectType: 'person',
  subjectId: subject.hash,
});

/**
 * Finds the person in every store within the grants (`personal-data.export`), and what the
 * grants' `personal-data.erase` would erase. Writes `personal-data.search` (the hash and the
 * counts, never the address) to the audit log.
 */
export async function findPerson(request: FastifyRequest, email: string): Promise<PersonFound> {
  const db = request.server.db;
  const grants = grantsOf(request);
  const subject = subjectOf(request, email);
  const all = await collect(request, db, subject);
  const seen = within(all, grants, 'personal-data.export');
  const held = await heldOf(db, all);
  const counts = countsOf(seen);
  const records: FoundRecord[] = PERSON_STORES.flatMap((store) =>
    seen[store].map((r) => ({
      store,
      id: r.id,
      siteId: r.siteId,
      lang: r.lang,
      at: r.at,
      summary: r.summary,
      held: held.has(`${store}:${r.id}`),
    })),
  );
  const erase = countsOf(erasable(within(all, grants, 'personal-data.erase'), held));
  await recordAudit(db, actorOf(request), {
    action: 'personal-data.search',
    ...personAudit(subject),
    changes: { found: { after: counts } },
  });
  return { subject: subject.hash, counts, erasable: erase, records };
}

/**
 * Everything found within the grants as one ZIP archive: `person.json` (each store's rows,
 * opened, the submissions with their handling and timeline) and each submission's files, opened,
 * under `files/<submission>/`. Writes `personal-data.export` with the counts to the audit log.
 */
export async function exportPerson(request: FastifyRequest, email: string): Promise<Buffer> {
  const { db, files, config } = request.server;
  const key = config.forms.encryptionKey;
  const subject = subjectOf(request, email);
  const stores = within(
    await collect(request, db, subject),
    grantsOf(request),
    'personal-data.export',
  );
  const ids = stores.submissions.map((s) => s.id);
  const timelines = await submissionTimelines(db, key, ids);
  const entries: ZipEntry[] = [];
  const paths = new Map<string, string>();
  for (const file of await submissionFiles(db, ids)) {
    const sealed = await files.get(file.storageKey);
    if (!sealed) continue;
    const path = safeEntryName(`files/${file.submissionId}/${file.position + 1}-${file.name}`);
    paths.set(`${file.submissionId}:${file.position}`, path);
    entries.push({ name: path, data: openBytes(key, sealed) });
  }
  const json = {
    exportedAt: new Date().toISOString(),
    address: subject.address,
    counts: countsOf(stores),
    stores: Object.fromEntries(
      PERSON_STORES.map((store) => [
        store,
        stores[store].map((r) =>
          store === 'submissions' ? withTimeline(r, timelines.get(r.id), paths) : r.data,
        ),
      ]),
    ),
  };
  entries.unshift({ name: 'person.json', data: Buffer.from(JSON.stringify(json, null, 2)) });
  await recordAudit(db, actorOf(request), {
    action: 'personal-data.export',
    ...personAudit(subject),
    changes: { exported: { after: { ...countsOf(stores), files: entries.length - 1 } } },
  });
  return zipArchive(entries);
}

/** A submission's data with its handling, and each file's place in the archive. */
function withTimeline(
  record: PersonRecord,
  handling: Record<string, unknown> | undefined,
  paths: Map<string, string>,
): Record<string, unknown> {
  const files = (record.data.files as { position: number }[]).map((f) => ({
    ...f,
    archivePath: paths.get(`${record.id}:${f.position}`) ?? null,
  }));
  return { ...record.data, files, handling: handling ?? null };
}

/**
 * Erases the person within the grants (`personal-data.erase`), in one transaction, on the counts
 * the staff member confirmed (other counts now: 409, nothing done): reviews deleted, orders
 * anonymised, accounts deleted with their sessions ended, mails and submissions deleted (those on
 * legal hold kept), subscriptions and campaign entries deleted. Each step with rows writes its
 * audit row, and the request one more (`personal-data.erase`). The submissions' files are queued
 * in the same transaction and deleted from the file store after the commit; what fails there is
 * retried by the job.
 */
export async function erasePerson(request: FastifyRequest, body: EraseRequest): Promise<Erased> {
  const { db, files } = request.server;
  const grants = grantsOf(request);
  const subject = subjectOf(request, body.email);
  const actor = actorOf(request);
  const requestId = randomUUID();
  const done = await db.transaction(async (tx) => {
    // Two erasures of one person wait for each other; the second then finds other counts.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${subject.hash}, 0))`);
    const all = await collect(request, tx, subject);
    const held = await heldOf(tx, all);
    const mayErase = within(all, grants, 'personal-data.erase');
    const stores = erasable(mayErase, held);
    const kept = mayErase.submissions.filter((r) => held.has(`submissions:${r.id}`)).length;
    const counts = countsOf(stores);
    if (PERSON_STORES.some((s) => counts[s] !== body.counts[s])) {
      throw new Conflict('What is stored about the person changed since the search. Search again.');
    }
    const result = await eraseSteps(tx, actor, subject, stores, {
      requestId,
      mails: can(grants, 'personal-data.erase'),
    });
    await queueFileDeletions(tx, requestId, subject.hash, result.fileKeys);
    await recordAudit(tx, actor, {
      action: 'personal-data.erase',
      ...personAudit(subject),
      changes: {
        erased: {
          after: {
            requestId,
            ...result.erased,
            kept,
            sessionsEnded: result.sessionsEnded,
            files: result.fileKeys.length,
          },
        },
      },
    });
    return { ...result, kept };
  });
  const { deleted, pending } = await deleteQueuedFiles(db, files, { requestId, actor });
  return {
    subject: subject.hash,
    requestId,
    erased: done.erased,
    kept: done.kept,
    sessionsEnded: done.sessionsEnded,
    filesDeleted: deleted,
    filesPending: pending,
  };
}

/** The erasure's steps in order, each audited when it changed anything. */
async function eraseSteps(
  tx: Transaction,
  actor: Actor,
  subject: PersonSubject,
  stores: Stores,
  options: { requestId: string; mails: boolean },
) {
  const ids = (store: PersonStore) => stores[store].map((r) => r.id);
  const erased = Object.fromEntries(PERSON_STORES.map((s) => [s, 0])) as StoreCounts;
  let sessionsEnded = 0;
  const step = async (store: PersonStore, count: number, extra: Record<string, unknown> = {}) => {
    erased[store] = count;
    if (count === 0) return;
    await recordAudit(tx, actor, {
      action: `personal-data.erase.${store}`,
      ...personAudit(subject),
      changes: { [store]: { after: { requestId: options.requestId, count, ...extra } } },
    });
  };
  await step('reviews', await eraseReviews(tx, ids('reviews')));
  const anonymised = await anonymiseOrders(tx, ids('orders'));
  sessionsEnded += anonymised.sessions;
  await step('orders', anonymised.orders, { anonymised: true, sessionsEnded: anonymised.sessions });
  const accounts = await eraseCustomerAccounts(tx, ids('customers'));
  sessionsEnded += accounts.sessions;
  await step('customers', accounts.accounts, { sessionsEnded: accounts.sessions });
  await step('outbox', await eraseOutboxMails(tx, ids('outbox')));
  const submissions = await eraseSubmissions(tx, ids('submissions'));
  await step('submissions', submissions.count, { files: submissions.fileKeys.length });
  await step(
    'subscriptions',
    await eraseSubscriptions(tx, ids('subscriptions'), subject, options.mails),
  );
  await step('campaignEntries', await eraseCampaignEntries(tx, ids('campaignEntries')));
  return { erased, sessionsEnded, fileKeys: submissions.fileKeys };
}
