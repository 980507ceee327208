import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import { contentVersionOf } from '../../db/content-changes.ts';
import type { FormsConfig } from '../../server/config.ts';
import { AppError, type FieldErrors, Forbidden, Invalid, NotFound } from '../../server/errors.ts';
import { localReturnPath } from '../../server/return-path.ts';
import { getSite, sites } from '../../sites/registry.ts';
import { langPrefix, localLink } from '../../sites/resolve.ts';
import type { Lang, Site } from '../../sites/types.ts';
import { actorOf, recordAudit } from '../staff/index.server.ts';
import { type AccessGrant, can } from '../staff/index.ts';
import { type FormId, formIds } from './forms.ts';
import {
  type FormSettingsRow,
  type FormSettingsSite,
  type FormSettingsSites,
  type FormSettingsUpdate,
  NO_SUCH_PAGE,
  type SettingsLang,
} from './settings-schemas.ts';
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
 */

/** Whether a page (or a product, recipe or news release) lives at a path of a site's language. */
export type PageLookup = (
  db: Database,
  siteId: string,
  lang: Lang,
  path: string,
) => Promise<boolean>;

interface Stored {
  recipients: string[] | null;
  successPages: Record<string, string>;
  version: number;
  updatedAt: Date;
}

type Row = typeof formSettings.$inferSelect;

const storedOf = (row: Row): Stored => ({
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
  rows: Promise<Map<string, Stored>>;
}

const caches = new WeakMap<object, Cached>();

/** Every stored setting, read once per content version of the database handle. */
function storedSettings(db: Database): Promise<Map<string, Stored>> {
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
function defaultRecipients(config: FormsConfig, formId: FormId, siteId: string): string[] {
  const listed = lookup(config.recipients, formId, siteId) ?? config.defaultRecipient;
  return listed
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
}

interface SuccessPage {
  path: string | null;
  url: string | null;
  isDefault: boolean;
  defaultUrl: string | null;
}

/** A language's success page: as staff set it (inside the language version), else the default. */
function successPageOf(
  config: FormsConfig,
  stored: Stored | undefined,
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

// ---------------------------------------------------------------------------------------------
// The back office
// ---------------------------------------------------------------------------------------------

/** The languages of a site whose form settings the grants reach. */
function langsOf(grants: readonly AccessGrant[], site: Site): Lang[] {
  return site.languages.filter((lang) => can(grants, 'forms.settings', { siteId: site.id, lang }));
}

function grantsOf(request: FastifyRequest): readonly AccessGrant[] {
  if (!request.staff) throw new Forbidden();
  return request.staff.grants;
}

/**
 * The site the request names, if the staff member's grants reach it in some language: 404 for a
 * site that does not exist, 403 for one outside the grants. Run before the body is read.
 */
export function grantedSite(request: FastifyRequest): { site: Site; langs: Lang[] } {
  const id = (request.params as { site?: unknown } | undefined)?.site;
  const site = typeof id === 'string' ? getSite(id) : undefined;
  if (!site) throw new NotFound('No such site.');
  const langs = langsOf(grantsOf(request), site);
  if (langs.length === 0) throw new Forbidden('This needs the permission forms.settings.');
  return { site, langs };
}

/** The sites whose form settings the staff member may see, with the languages they reach. */
export function listFormSettingSites(request: FastifyRequest): FormSettingsSites {
  const grants = grantsOf(request);
  return {
    sites: sites
      .map((site) => ({ id: site.id, name: site.name, langs: langsOf(grants, site) }))
      .filter((site) => site.langs.length > 0),
  };
}

/** A form's settings as the back office shows them: each value and whether it is the default. */
function rowView(
  config: FormsConfig,
  site: Site,
  langs: readonly Lang[],
  formId: FormId,
  stored: Stored | undefined,
): FormSettingsRow {
  const defaults = defaultRecipients(config, formId, site.id);
  return {
    form: formId,
    version: stored?.version ?? 0,
    updatedAt: stored?.updatedAt.toISOString() ?? null,
    recipients: {
      addresses: stored?.recipients ?? defaults,
      isDefault: !stored?.recipients,
      defaults,
      editable: langs.length === site.languages.length,
    },
    successPages: langs.map((lang) => ({
      lang: lang as SettingsLang,
      ...successPageOf(config, stored, formId, site, lang),
    })),
  };
}

/** Every form of a site with its settings in the languages the staff member's grants reach. */
export async function formSettingsOfSite(request: FastifyRequest): Promise<FormSettingsSite> {
  const { site, langs } = grantedSite(request);
  const rows = await request.server.db
    .select()
    .from(formSettings)
    .where(eq(formSettings.siteId, site.id));
  const byForm = new Map(rows.map((row) => [row.form, storedOf(row)]));
  const config = request.server.config.forms;
  return {
    site: { id: site.id, name: site.name, langs: langs as SettingsLang[] },
    forms: formIds.map((formId) => rowView(config, site, langs, formId, byForm.get(formId))),
  };
}

/** A change made on settings that someone changed since they were shown: 409 with the newest. */
export class SettingsMoved extends AppError {
  constructor(current: FormSettingsRow) {
    super(
      409,
      'stale-version',
      'Conflict',
      'Someone changed the form’s settings since they were shown. Look at the newest ones.',
      { current },
    );
  }
}

/**
 * The success pages the body sets, each as the path inside its language version, checked: the
 * language is the site's and within the grants (403 otherwise), and a page of the site lives
 * there. A path given with the language's prefix (`/sv/kontakta-oss/tack`) is taken without it.
 */
async function checkedSuccessPages(
  db: Database,
  pageAt: PageLookup,
  site: Site,
  langs: readonly Lang[],
  pages: NonNullable<FormSettingsUpdate['successPages']>,
  errors: FieldErrors,
): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for (const [lang, given] of Object.entries(pages) as [Lang, string | null | undefined][]) {
    if (given === undefined) continue;
    const field = `successPages.${lang}`;
    if (!site.languages.includes(lang)) {
      errors[field] = 'admin.error.invalid';
      continue;
    }
    if (!langs.includes(lang)) throw new Forbidden('This needs forms.settings in that language.');
    if (given === null) {
      out[lang] = null;
      continue;
    }
    const prefix = langPrefix(site, lang);
    const path =
      prefix && (given === prefix || given.startsWith(`${prefix}/`))
        ? given.slice(prefix.length) || '/'
        : given;
    if (localReturnPath(path) !== path) errors[field] = 'admin.error.invalid';
    else if (!(await pageAt(db, site.id, lang, path))) errors[field] = NO_SUCH_PAGE;
    else out[lang] = path;
  }
  return out;
}

/** The addresses without repeats (the same address in other letters counts once), in order. */
function distinct(addresses: readonly string[]): string[] {
  const seen = new Set<string>();
  return addresses.filter((a) => {
    const key = a.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Changes a form's settings on a site: the recipients (needs the grant for every language of the
 * site: they get every language's mail) and success pages per language (the grant for that
 * language). `version` is the one the staff member saw (0 while nothing was set): anything else
 * than the stored one is 409 with the newest. The write and its audit row (before and after, null
 * for the default) are one transaction; a change is a content change, heard by every process.
 */
export async function updateFormSettings(
  request: FastifyRequest,
  pageAt: PageLookup,
  formId: FormId,
  body: FormSettingsUpdate,
): Promise<FormSettingsRow> {
  const { site, langs } = grantedSite(request);
  const db = request.server.db;
  const config = request.server.config.forms;
  if (body.recipients !== undefined && langs.length !== site.languages.length) {
    throw new Forbidden('The recipients need forms.settings in every language of the site.');
  }
  const errors: FieldErrors = {};
  const pages = await checkedSuccessPages(db, pageAt, site, langs, body.successPages ?? {}, errors);
  if (Object.keys(errors).length) throw new Invalid(errors);
  const recipients =
    body.recipients === undefined ? undefined : body.recipients && distinct(body.recipients);

  return db.transaction(async (tx) => {
    const where = and(eq(formSettings.siteId, site.id), eq(formSettings.form, formId));
    const [row] = await tx.select().from(formSettings).where(where).for('update');
    const before = row ? storedOf(row) : undefined;
    if ((before?.version ?? 0) !== body.version) {
      throw new SettingsMoved(rowView(config, site, langs, formId, before));
    }
    const nextRecipients = recipients === undefined ? (before?.recipients ?? null) : recipients;
    const nextPages = { ...before?.successPages };
    for (const [lang, path] of Object.entries(pages)) {
      if (path === null) delete nextPages[lang];
      else nextPages[lang] = path;
    }
    const changes: Record<string, { before: unknown; after: unknown }> = {};
    const oldRecipients = before?.recipients ?? null;
    if (JSON.stringify(oldRecipients) !== JSON.stringify(nextRecipients)) {
      changes.recipients = { before: oldRecipients, after: nextRecipients };
    }
    for (const lang of site.languages) {
      const was = before?.successPages[lang] ?? null;
      const now = nextPages[lang] ?? null;
      if (was !== now) changes[`successPages.${lang}`] = { before: was, after: now };
    }
    if (Object.keys(changes).length === 0) return rowView(config, site, langs, formId, before);

    const values = { recipients: nextRecipients, successPages: nextPages, updatedAt: new Date() };
    const [written] = row
      ? await tx
          .update(formSettings)
          .set({ ...values, version: row.version + 1 })
          .where(where)
          .returning()
      : await tx
          .insert(formSettings)
          .values({ siteId: site.id, form: formId, ...values, version: 1 })
          .onConflictDoNothing()
          .returning();
    if (!written) {
      // Someone set the first values at the same moment: theirs are the newest.
      const [theirs] = await tx.select().from(formSettings).where(where);
      throw new SettingsMoved(
        rowView(config, site, langs, formId, theirs ? storedOf(theirs) : undefined),
      );
    }
    await recordAudit(tx, actorOf(request), {
      action: 'forms.settings.update',
      subjectType: 'form-settings',
      subjectId: keyOf(site.id, formId),
      siteId: site.id,
      changes,
    });
    return rowView(config, site, langs, formId, storedOf(written));
  });
}
