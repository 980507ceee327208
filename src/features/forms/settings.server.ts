import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database, Transaction } from '../../db/client.ts';
import { contentVersionOf } from '../../db/content-changes.ts';
import type { FormsConfig } from '../../server/config.ts';
import { localReturnPath } from '../../server/return-path.ts';
import { langPrefix, localLink } from '../../sites/resolve.ts';
import type { Lang, Site } from '../../sites/types.ts';
import type { FormId } from './forms.ts';
import { formSettings } from './tables.ts';

/**
 * The forms' settings per site (decision 170): who gets a form's notification mail and where a
 * visitor goes after sending it. Staff set them in the back office (`form_settings`); whatever they
 * have not set is the environment's default, so a fresh machine behaves as the variables say.
 *
 * Each process reads the table once and keeps it until its content version moves, as the search
 * synonyms do (decision 164): a write to `form_settings` is a content change, so on PostgreSQL the
 * other processes hear it through the content channel's NOTIFY and read the table again before
 * the next submission; while a process cannot hear (`complete` false) it reads again after a
 * second, and a database object no handle registered (scripts) after two seconds.
 *
 * The back office's screen and API are the form-settings feature's: it checks the staff member's
 * grants and the pages, and writes through `writeFormSettings` with its audit row.
 */

export interface StoredFormSettings {
  recipients: string[] | null;
  successPages: Record<string, string>;
  version: number;
  updatedAt: Date;
}

type Row = typeof formSettings.$inferSelect;

const storedOf = (row: Row): StoredFormSettings => ({
  recipients: row.recipients,
  successPages: row.successPages,
  version: row.version,
  updatedAt: row.updatedAt,
});

const keyOf = (siteId: string, formId: string) => `${siteId}/${formId}`;

/** Kept this long by a database object without a content version (scripts, benches). */
const UNVERSIONED_MS = 2_000;
/** Kept this long while the process cannot hear the other processes' changes. */
const UNHEARD_MS = 1_000;

interface Cached {
  version: number | undefined;
  at: number;
  rows: Promise<Map<string, StoredFormSettings>>;
}

const caches = new WeakMap<object, Cached>();

/** Every stored setting, read once per content version of the database handle. */
function storedSettings(db: Database): Promise<Map<string, StoredFormSettings>> {
  const version = contentVersionOf(db);
  const now = Date.now();
  const cached = caches.get(db);
  const current = version?.complete ? version.current : undefined;
  const fresh =
    cached &&
    (version?.complete
      ? cached.version === current
      : now - cached.at <= (version ? UNHEARD_MS : UNVERSIONED_MS));
  if (cached && fresh) return cached.rows;
  const rows = db
    .select()
    .from(formSettings)
    .then((list) => new Map(list.map((row) => [keyOf(row.siteId, row.form), storedOf(row)])));
  const next = { version: current, at: now, rows };
  caches.set(db, next);
  rows.catch(() => {
    if (caches.get(db) === next) caches.delete(db);
  });
  return rows;
}

function lookup(map: Record<string, string>, formId: FormId, siteId: string): string | undefined {
  return map[`${formId}@${siteId}`] ?? map[formId];
}

/** The environment's addresses of a form on a site. */
export function defaultRecipients(config: FormsConfig, formId: FormId, siteId: string): string[] {
  const listed = lookup(config.recipients, formId, siteId) ?? config.defaultRecipient;
  return listed
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
}

export interface SuccessPage {
  path: string | null;
  url: string | null;
  isDefault: boolean;
  defaultUrl: string | null;
}

/** A language's success page: as staff set it (inside the language version), else the default. */
export function successPageOf(
  config: FormsConfig,
  stored: StoredFormSettings | undefined,
  formId: FormId,
  site: Site,
  lang: Lang,
): SuccessPage {
  const configured = lookup(config.successPages, formId, site.id) ?? null;
  const defaultUrl = localReturnPath(configured);
  const own = stored?.successPages[lang];
  if (own) {
    const url = localReturnPath(localLink(own, langPrefix(site, lang)));
    return { path: own, url, isDefault: false, defaultUrl };
  }
  return { path: configured, url: defaultUrl, isDefault: true, defaultUrl };
}

export interface EffectiveFormSettings {
  /** The notification mail's recipients, comma-separated as the outbox keeps them. */
  recipients: string;
  /** Where the visitor goes after a successful submit; undefined: the form shows its text. */
  successPage: string | undefined;
}

/** What a submission of a form on a site and language uses: staff's settings, else the defaults. */
export async function formSettingsFor(
  app: FastifyInstance,
  formId: FormId,
  site: Site,
  lang: Lang,
): Promise<EffectiveFormSettings> {
  const stored = (await storedSettings(app.db)).get(keyOf(site.id, formId));
  const config = app.config.forms;
  const recipients = stored?.recipients ?? defaultRecipients(config, formId, site.id);
  return {
    recipients: recipients.join(','),
    successPage: successPageOf(config, stored, formId, site, lang).url ?? undefined,
  };
}

/** The stored settings of a site's forms, read now (not from the process's memory). */
export async function storedFormSettingsOfSite(
  db: Database,
  siteId: string,
): Promise<Map<string, StoredFormSettings>> {
  const rows = await db.select().from(formSettings).where(eq(formSettings.siteId, siteId));
  return new Map(rows.map((row) => [row.form, storedOf(row)]));
}

/** A write made on settings that moved on since `version` was seen: `current` is the newest. */
export class StaleFormSettings extends Error {
  constructor(readonly current: StoredFormSettings | undefined) {
    super('The form settings changed since they were shown.');
  }
}

export interface FormSettingsWrite {
  siteId: string;
  formId: FormId;
  /** The languages of the site (the changes name each one whose page changed). */
  langs: readonly Lang[];
  /** The version seen: 0 while nothing was set. */
  version: number;
  /** The addresses; null: the default; undefined: unchanged. */
  recipients: string[] | null | undefined;
  /** Per language the path inside the language version; null: the default. */
  successPages: Record<string, string | null>;
}

export type SettingsChanges = Record<string, { before: unknown; after: unknown }>;

/**
 * Writes a form's settings on a site in one transaction with what `audit` writes about the
 * changes (null for the default): `StaleFormSettings` when the version seen is not the stored one
 * (0: no row), nothing written when nothing changes. Answers the settings as stored now.
 */
export async function writeFormSettings(
  db: Database,
  write: FormSettingsWrite,
  audit: (tx: Transaction, changes: SettingsChanges) => Promise<void>,
): Promise<StoredFormSettings | undefined> {
  return db.transaction(async (tx) => {
    const where = and(eq(formSettings.siteId, write.siteId), eq(formSettings.form, write.formId));
    const [row] = await tx.select().from(formSettings).where(where).for('update');
    const before = row ? storedOf(row) : undefined;
    if ((before?.version ?? 0) !== write.version) throw new StaleFormSettings(before);
    const nextRecipients =
      write.recipients === undefined ? (before?.recipients ?? null) : write.recipients;
    const nextPages = { ...before?.successPages };
    for (const [lang, path] of Object.entries(write.successPages)) {
      if (path === null) delete nextPages[lang];
      else nextPages[lang] = path;
    }
    const changes: SettingsChanges = {};
    const oldRecipients = before?.recipients ?? null;
    if (JSON.stringify(oldRecipients) !== JSON.stringify(nextRecipients)) {
      changes.recipients = { before: oldRecipients, after: nextRecipients };
    }
    for (const lang of write.langs) {
      const was = before?.successPages[lang] ?? null;
      const now = nextPages[lang] ?? null;
      if (was !== now) changes[`successPages.${lang}`] = { before: was, after: now };
    }
    if (Object.keys(changes).length === 0) return before;

    const values = { recipients: nextRecipients, successPages: nextPages, updatedAt: new Date() };
    const [written] = row
      ? await tx
          .update(formSettings)
          .set({ ...values, version: row.version + 1 })
          .where(where)
          .returning()
      : await tx
          .insert(formSettings)
          .values({ siteId: write.siteId, form: write.formId, ...values, version: 1 })
          .onConflictDoNothing()
          .returning();
    if (!written) {
      // Someone set the first values at the same moment: theirs are the newest.
      const [theirs] = await tx.select().from(formSettings).where(where);
      throw new StaleFormSettings(theirs ? storedOf(theirs) : undefined);
    }
    await audit(tx, changes);
    return storedOf(written);
  });
}
