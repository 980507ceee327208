import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  jsonAnswer,
  problemAnswersWith,
  problemSchema,
  validationProblemSchema,
  XSRF_SECURITY,
} from '../../server/openapi.ts';
import { perMinute } from '../../server/rate-limit.ts';
import { siteListRoute } from '../../server/site-list-route.ts';
import { zodValidatorCompiler } from '../../server/validate.ts';
import { languages } from '../../sites/types.ts';
import { devOutboxRoutes } from './dev-outbox.server.tsx';
import { devSubmissionRoutes } from './dev-submissions.server.ts';
import { type FormId, formIds, forms, SCHOOL_MATERIALS_PATH } from './forms.ts';
import { LARGE_BODY_BYTES, largeBodyGate } from './gate.server.ts';
import { schoolMaterialList } from './products.server.ts';
import { FILE_MAX_BYTES } from './schemas.ts';
import { FormInvalid, submitForm } from './submissions.server.ts';

/** Room for the fields and the captcha token besides the files. */
const FIELDS_BYTES = 256 * 1024;
/** One file as a data URL: base64 of 15 MB plus its `data:…;base64,` prefix and JSON quoting. */
const FILE_BODY_BYTES = Math.ceil(FILE_MAX_BYTES / 3) * 4 + 1024;

/** The largest body a form's files can need: three 15 MB images make about 61 MB of JSON. */
export function bodyLimitOf(formId: FormId): number {
  return (forms[formId].files?.max ?? 0) * FILE_BODY_BYTES + FIELDS_BYTES;
}

const schoolMaterialSchema = z.object({ material: z.string(), url: z.string() });

/** What a form endpoint answers on success. */
const formAnswerSchema = z.object({
  isSuccess: z.literal(true),
  /**
   * The form's success page on this site in the page's language: staff's setting, else
   * `FORM_SUCCESS_PAGES` (decision 170).
   */
  redirect: z.string().optional(),
});

/**
 * The language version of the page the form was sent from (`?lang=sv`; the widget sends its
 * page's): the API's own path names none. A language the site does not have, or none, is the
 * site's first.
 */
const formQuerySchema = z.object({ lang: z.enum(languages).optional().catch(undefined) });

/** Every refusal of a form endpoint: a problem with `isSuccess: false`. */
const formProblemSchema = problemSchema
  .extend({
    errors: validationProblemSchema.shape.errors.optional(),
    isSuccess: z.literal(false),
  })
  .meta({ id: 'FormProblem', description: 'A refused submission: `errors` names each field.' });

/** A refused submission answers `FormInvalid` (its detail speaks of the form). */
const formValidation = zodValidatorCompiler({ invalid: (errors) => new FormInvalid(errors) });

/**
 * The form endpoints (`POST`, spec §7) and the school material list. (The product list of the
 * product select is the search feature's `/api/search/all-products`.)
 */
export async function formRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const gate = largeBodyGate({
    max: app.config.forms.maxLargeBodies,
    idleTimeoutMs: app.config.forms.bodyIdleTimeoutMs,
    shared: app.sharedCounters,
  });
  const rateLimit = perMinute(app.config.forms.rateLimit);

  // Every answer of a form endpoint carries isSuccess, refusals (problem+json) included.
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.routeOptions.config.formEndpoint) return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    if (!type.startsWith('application/problem+json') || typeof payload !== 'string') return payload;
    try {
      return JSON.stringify({ ...(JSON.parse(payload) as object), isSuccess: false });
    } catch {
      return payload;
    }
  });
  app.addHook('onResponse', async (request) => gate.release(request));
  app.addHook('onRequestAbort', async (request) => gate.release(request));

  for (const formId of formIds) {
    const limit = bodyLimitOf(formId);
    const gated = limit > LARGE_BODY_BYTES;
    app.post(
      forms[formId].path,
      {
        bodyLimit: limit,
        config: { rateLimit, formEndpoint: true },
        // Only bodies that can carry files are large; the others never reach the gate.
        onRequest: gated ? gate.onRequest : [],
        validatorCompiler: formValidation,
        schema: {
          tags: ['forms'],
          summary: `Sends the ${formId} form`,
          security: XSRF_SECURITY,
          querystring: formQuerySchema,
          body: forms[formId].schema,
          response: {
            200: jsonAnswer(formAnswerSchema, 'Stored; the notification mail is on its way'),
            ...problemAnswersWith(
              () => formProblemSchema,
              ...(gated ? ([400, 403, 413, 429, 503] as const) : ([400, 403, 413, 429] as const)),
            ),
          },
        },
      },
      async (request, reply) => {
        const asked = request.query.lang;
        const result = await submitForm(app, formId, request.body, {
          site: request.site,
          lang: asked && request.site.languages.includes(asked) ? asked : request.locale.lang,
        });
        reply.header('cache-control', 'no-store');
        return {
          isSuccess: true as const,
          ...(result.redirect ? { redirect: result.redirect } : {}),
        };
      },
    );
  }

  siteListRoute(
    app,
    SCHOOL_MATERIALS_PATH,
    {
      tags: ['forms'],
      summary: 'The school materials of the site, for the order form',
      item: schoolMaterialSchema,
      answer: 'The materials in order',
    },
    schoolMaterialList,
  );

  await app.register(devOutboxRoutes);
  await app.register(devSubmissionRoutes);
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A form endpoint: its problem answers also carry `isSuccess: false`. */
    formEndpoint?: boolean;
  }
}
