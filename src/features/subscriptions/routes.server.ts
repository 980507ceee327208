import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { serverT } from '../../i18n/catalogues.ts';
import { siteHomeUrl } from '../../render/render-page.tsx';
import { Invalid } from '../../server/errors.ts';
import { jsonAnswer, problemAnswers, XSRF_SECURITY } from '../../server/openapi.ts';
import { clientLimit } from '../../server/rate-limit.ts';
import { langPrefix } from '../../sites/resolve.ts';
import type { Lang } from '../../sites/types.ts';
import {
  CAMPAIGN_API,
  CHOOSE_ONE_ERROR,
  campaignSchema,
  categorySchema,
  languageQuery,
  NEWS_CATEGORIES_API,
  NEWS_SUBSCRIBE_API,
  NEWSLETTER_API,
  newsletterSchema,
  newsSubscribeSchema,
  successSchema,
} from './schemas.ts';
import {
  type MailContext,
  newsCategories,
  newsReleaseLists,
  participate,
  subscribe,
} from './store.server.ts';

/** Small JSON bodies only: a 20 MB body is refused (413) before it is read. */
export const BODY_LIMIT = 16 * 1024;

/**
 * Posts per client address and minute, over the four endpoints together (the shared rate-limit
 * store: one budget for every process when Redis is configured).
 */
export const SUBSCRIBE_LIMIT = { name: 'subscribe', max: 10, timeWindow: 60_000 };

export function mailContext(request: FastifyRequest, lang: Lang): MailContext {
  const { config } = request.server;
  return {
    mailKey: config.forms.encryptionKey,
    secret: config.sessionSecret,
    siteUrl: siteHomeUrl(request, request.site.id),
    langPrefix: langPrefix(request.site, lang),
    siteName: request.site.name,
  };
}

function languageOf(language: string | undefined, fallback: Lang): Lang {
  if (language === 'se') return 'sv';
  return (language as Lang | undefined) ?? fallback;
}

/**
 * The language of a subscription: the page's, which the widgets send as `?language=` (the API's
 * own path has no language prefix), when the site has it; else the site's default.
 */
function postLang(request: FastifyRequest<{ Querystring: { language?: string } }>): Lang {
  const lang = languageOf(request.query.language, request.locale.lang);
  return request.site.languages.includes(lang) ? lang : request.locale.lang;
}

const success = { success: true as const };

/**
 * The options of a subscription post: the JSON body's limit, the shared per-client budget, the
 * anti-forgery header, the page's language in the query, the OpenAPI entry.
 */
function subscriptionPost<B extends z.ZodType>(
  limit: preValidationAsyncHookHandler,
  doc: { summary: string; description: string; body: B; answer: string },
) {
  return {
    bodyLimit: BODY_LIMIT,
    preValidation: limit,
    schema: {
      tags: ['subscriptions'],
      summary: doc.summary,
      description: doc.description,
      security: XSRF_SECURITY,
      querystring: languageQuery,
      body: doc.body,
      response: {
        200: jsonAnswer(successSchema, doc.answer),
        ...problemAnswers(400, 403, 413, 429),
      },
    },
  };
}

/**
 * The newsletter, campaign and news-release endpoints (spec §7). Every answer to a valid post is
 * the same `{ success: true }`, whether the address was new, pending, confirmed or over its mail
 * bound (decision 038): nothing tells whether an address is on a list.
 */
export async function subscriptionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = clientLimit(fastify, SUBSCRIBE_LIMIT);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.post(
    NEWSLETTER_API,
    subscriptionPost(limit, {
      summary: 'Subscribes an address to the newsletter of the site (double opt-in)',
      description:
        'Stores the subscription as pending with its consent and mails a confirmation link (at most 3 mails per address and hour). The answer is the same whether the address was already subscribed or not.',
      body: newsletterSchema,
      answer: 'Accepted',
    }),
    async (request) => {
      const lang = postLang(request);
      const t = serverT(lang);
      await subscribe(
        app.db,
        {
          siteId: request.site.id,
          lang,
          email: request.body.email,
          lists: [{ list: 'newsletter', name: t('subscribe.list.newsletter') }],
          source: request.body.source ?? 'newsletter-modal',
          consentText: t('subscribe.consent.newsletter'),
        },
        mailContext(request, lang),
      );
      return success;
    },
  );

  app.post(
    CAMPAIGN_API,
    subscriptionPost(limit, {
      summary: 'Takes part in a campaign, once per address',
      description:
        '`join` is the campaign id; the booleans travel as text. An unknown or closed campaign is refused (400 naming `join`) and nothing is stored. With `subscribeToCinCinVinoNewsletter` the address goes on the campaign list through the double opt-in.',
      body: campaignSchema,
      answer: 'Taken part (or had already)',
    }),
    async (request) => {
      const lang = postLang(request);
      await participate(app.db, request.body, {
        siteId: request.site.id,
        lang,
        mail: mailContext(request, lang),
      });
      return success;
    },
  );

  app.get(
    NEWS_CATEGORIES_API,
    {
      config: { session: false },
      schema: {
        tags: ['subscriptions'],
        summary: 'The news-release categories of the site one can subscribe to',
        querystring: languageQuery,
        response: {
          200: jsonAnswer(z.array(categorySchema), 'The categories in order'),
          ...problemAnswers(400),
        },
      },
    },
    async (request, reply) => {
      const lang = languageOf(request.query.language, request.locale.lang);
      const list = await newsCategories(app.db, request.site.id, lang);
      reply.header('cache-control', 'public, max-age=300');
      return list;
    },
  );

  app.post(
    NEWS_SUBSCRIBE_API,
    subscriptionPost(limit, {
      summary: 'Subscribes an address to news-release categories and the newsletter',
      description:
        'At least one category or `subscribeToUutiskirje` (else 400 naming `informationTypes`); every category must be one of the site’s in the request’s language. Double opt-in as the newsletter.',
      body: newsSubscribeSchema,
      answer: 'Accepted',
    }),
    async (request) => {
      const lang = postLang(request);
      const t = serverT(lang);
      const lists = await newsReleaseLists(
        app.db,
        request.site.id,
        lang,
        request.body.informationTypes,
      );
      if (request.body.subscribeToUutiskirje) {
        lists.push({ list: 'newsletter', name: t('subscribe.list.newsletter') });
      }
      if (lists.length === 0) throw new Invalid({ informationTypes: CHOOSE_ONE_ERROR });
      await subscribe(
        app.db,
        {
          siteId: request.site.id,
          lang,
          email: request.body.email,
          lists,
          source: 'news-releases',
          consentText: t('subscribe.consent.newsReleases'),
        },
        mailContext(request, lang),
      );
      return success;
    },
  );
}
