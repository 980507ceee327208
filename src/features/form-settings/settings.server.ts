import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { FormsConfig } from '../../server/config.ts';
import { AppError, type FieldErrors, Forbidden, Invalid, NotFound } from '../../server/errors.ts';
import { localReturnPath } from '../../server/return-path.ts';
import { getSite, sites } from '../../sites/registry.ts';
import { langPrefix } from '../../sites/resolve.ts';
import type { Lang, Site } from '../../sites/types.ts';
import { resolvePath } from '../content/index.server.ts';
import {
  defaultRecipients,
  StaleFormSettings,
  type StoredFormSettings,
  storedFormSettingsOfSite,
  successPageOf,
  writeFormSettings,
} from '../forms/index.server.ts';
import { type FormId, formIds } from '../forms/index.ts';
import { actorOf, recordAudit } from '../staff/index.server.ts';
import { type AccessGrant, can } from '../staff/index.ts';
import {
  type FormSettingsRow,
  type FormSettingsSite,
  type FormSettingsSites,
  type FormSettingsUpdate,
  NO_SUCH_PAGE,
  type SettingsLang,
} from './schemas.ts';

/**
 * The back office's use cases of the forms' settings per site (decision 170): which sites and
 * languages the staff member's grants reach with `forms.settings`, each form's values as they
 * apply now (staff's, else the environment's defaults), and a change checked against the grants
 * and the site's pages, written by the forms feature in one transaction with its audit row.
 */

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
  stored: StoredFormSettings | undefined,
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
  const byForm = await storedFormSettingsOfSite(request.server.db, site.id);
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
    else if (!(await resolvePath(db, site.id, lang, path))) errors[field] = NO_SUCH_PAGE;
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
  const pages = await checkedSuccessPages(db, site, langs, body.successPages ?? {}, errors);
  if (Object.keys(errors).length) throw new Invalid(errors);
  try {
    const stored = await writeFormSettings(
      db,
      {
        siteId: site.id,
        formId,
        langs: site.languages,
        version: body.version,
        recipients:
          body.recipients === undefined ? undefined : body.recipients && distinct(body.recipients),
        successPages: pages,
      },
      (tx, changes) =>
        recordAudit(tx, actorOf(request), {
          action: 'forms.settings.update',
          subjectType: 'form-settings',
          subjectId: `${site.id}/${formId}`,
          siteId: site.id,
          changes,
        }),
    );
    return rowView(config, site, langs, formId, stored);
  } catch (error) {
    if (error instanceof StaleFormSettings) {
      throw new SettingsMoved(rowView(config, site, langs, formId, error.current));
    }
    throw error;
  }
}
