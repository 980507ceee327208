import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { jsonAnswer } from '../../server/openapi.ts';
import { perMinute } from '../../server/rate-limit.ts';
import { adminRoute } from '../staff/index.server.ts';
import {
  FORM_SETTINGS_API,
  formSettingsParamsSchema,
  formSettingsRowSchema,
  formSettingsSiteParamsSchema,
  formSettingsSiteSchema,
  formSettingsSitesSchema,
  formSettingsUpdateSchema,
} from './schemas.ts';
import {
  formSettingsOfSite,
  grantedSite,
  listFormSettingSites,
  updateFormSettings,
} from './settings.server.ts';

const API_LIMIT = perMinute(600);
const WRITE_LIMIT = perMinute(120);
const BODY_LIMIT = 16 * 1024;

/**
 * `forms.settings` somewhere; each route that names a site checks, before the body is read, that
 * the grants reach the site in at least one language (404 for an unknown site, 403 outside).
 */
const staff = { permission: 'forms.settings' } as const;
const siteInGrants = async (request: FastifyRequest) => {
  grantedSite(request);
};

/** The forms' settings per site in the back office (decision 170). */
export async function formSettingsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  adminRoute(app, 'GET', FORM_SETTINGS_API, {
    staff,
    rateLimit: API_LIMIT,
    summary: 'The sites whose form settings the staff member may see',
    description: 'Each with the languages in which the grants give forms.settings.',
    answer: jsonAnswer(formSettingsSitesSchema, 'The sites in the registry’s order'),
    problems: [401, 403, 429],
    handler: (request) => listFormSettingSites(request),
  });
  adminRoute(app, 'GET', `${FORM_SETTINGS_API}/:site`, {
    staff,
    rateLimit: API_LIMIT,
    preValidation: siteInGrants,
    summary: 'The forms of a site with their recipients and success pages',
    description:
      'Each value as it applies now, and whether it is the default of the environment (`FORM_RECIPIENTS`, `FORM_DEFAULT_RECIPIENT`, `FORM_SUCCESS_PAGES`). Success pages in the languages the grants reach.',
    params: formSettingsSiteParamsSchema,
    answer: jsonAnswer(formSettingsSiteSchema, 'The forms in their fixed order'),
    problems: [400, 401, 403, 404, 429],
    handler: (request) => formSettingsOfSite(request),
  });
  adminRoute(app, 'PUT', `${FORM_SETTINGS_API}/:site/:form`, {
    staff,
    rateLimit: WRITE_LIMIT,
    bodyLimit: BODY_LIMIT,
    preValidation: siteInGrants,
    summary: 'Changes a form’s recipients or success pages on a site',
    description:
      '`recipients` (1–10 addresses; null: the default; absent: unchanged) need the grant for every language of the site; `successPages` per language (a path of a page of that language version; null: the default) the grant for that language. `version` is the one seen (0 while nothing was set): 409 (`/problems/stale-version`) with `current`, the newest, when someone changed them since. Written to the audit log; the next submission on every process uses them.',
    params: formSettingsParamsSchema,
    body: formSettingsUpdateSchema,
    answer: jsonAnswer(formSettingsRowSchema, 'The form’s settings as they are now'),
    problems: [400, 401, 403, 404, 409, 413, 429],
    handler: (request) => updateFormSettings(request, request.params.form, request.body),
  });
}
