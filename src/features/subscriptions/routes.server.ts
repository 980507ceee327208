import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { serverT } from '../../i18n/catalogues.ts';
import type { Translate } from '../../i18n/translate.ts';
import { siteHomeUrl } from '../../render/render-page.tsx';
import { Invalid } from '../../server/errors.ts';
import { jsonAnswer, problemAnswers, XSRF_SECURITY } from '../../server/openapi.ts';
import { clientLimit, perMinute } from '../../server/rate-limit.ts';
import { languageOf, languageQuery, siteListRoute } from '../../server/site-list-route.ts';
import type { ZodApp } from '../../server/types.ts';
import { langPrefix } from '../../sites/resolve.ts';
import type { Lang } from '../../sites/types.ts';
import {
  CAMPAIGN_API,
  CHOOSE_ONE_ERROR,
  campaignSchema,
  categorySchema,
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
  type SubscribeRequest,
  subscribe,
} from './store.server.ts';

/** Small JSON bodies only: a 20 MB body is refused (413) before it is read. */
export const BODY_LIMIT = 16 * 1024;

/**
 * Posts per client address and minute, over the four endpoints together (the shared rate-limit
 * store: one budget for every process when Redis is configured).
 */
export const SUBSCRIBE_LIMIT = { name: 'subscribe', ...perMinute(10) };

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

/**
 * The language of a subscription, which its consent text, mail and linked pages speak: the page's,
 * which the widgets send as `?language=` (the API's own path has no language prefix), when the
 * site has it; else the site's default.
 */
function postLang(request: FastifyRequest<{ Querystring: { language?: string } }>): Lang {
  const lang = languageOf(request.query.language, request.locale.lang);
  return request.site.languages.includes(lang) ? lang : request.locale.lang;
}

const success = { success: true as const };

/** The site's newsletter, named in the subscription's language. */
function newsletterList(t: Translate) {
  return { list: 'newsletter', name: t('subscribe.list.newsletter') };
}

/**
 * Puts the posted address on `lists` of the request's site in `lang` (double opt-in: pending,
 * with one confirmation mail for them all).
 */
function subscribeAddress(
  request: FastifyRequest<{ Body: { email: string } }>,
  lang: Lang,
  subscription: Pick<SubscribeRequest, 'lists' | 'source' | 'consentText'>,
) {
  return subscribe(
    request.server.db,
    { siteId: request.site.id, lang, email: request.body.email, ...subscription },
    mailContext(request, lang),
  );
}

/** A subscription post as its work sees it: the body and query its schemas parsed. */
type SubscriptionRequest<B extends z.ZodType> = FastifyRequest<{
  Body: z.output<B>;
  Querystring: z.output<typeof languageQuery>;
}>;

/**
 * Registers a subscription post: the JSON body's limit, the shared per-client budget, the
 * anti-forgery header, the page's language in the query, the OpenAPI entry. `run` does the work
 * in the subscription's language (`postLang`); whatever it did, the answer is the same.
 */
function subscriptionPost<B extends z.ZodType>(
  app: ZodApp,
  limit: preValidationAsyncHookHandler,
  path: string,
  doc: { summary: string; description: string; body: B; answer: string },
  run: (request: SubscriptionRequest<B>, lang: Lang) => Promise<unknown>,
): void {
  app.post(
    path,
    {
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
    },
    async (request) => {
      const parsed = request as SubscriptionRequest<B>;
      await run(parsed, postLang(parsed));
      return success;
    },
  );
}

/**
 * The newsletter, campaign and news-release endpoints (spec §7). Every answer to a valid post is
 * the same `{ success: true }`, whether the address was new, pending, confirmed or over its mail
 * bound (decision 038): nothing tells whether an address is on a list.
 */
export async function subscriptionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limit = clientLimit(fastify, SUBSCRIBE_LIMIT);
  // Posts are never kept; the category list says its own (the same for everyone, five minutes).
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  subscriptionPost(
    app,
    limit,
    NEWSLETTER_API,
    {
      summary: 'Subscribes an address to the newsletter of the site (double opt-in)',
      description:
        'Stores the subscription as pending with its consent and mails a confirmation link (at most 3 mails per address and hour). The answer is the same whether the address was already subscribed or not.',
      body: newsletterSchema,
      answer: 'Accepted',
    },
    async (request, lang) => {
      const t = serverT(lang);
      await subscribeAddress(request, lang, {
        lists: [newsletterList(t)],
        source: request.body.source ?? 'newsletter-modal',
        consentText: t('subscribe.consent.newsletter'),
      });
    },
  );

  subscriptionPost(
    app,
    limit,
    CAMPAIGN_API,
    {
      summary: 'Takes part in a campaign, once per address',
      description:
        '`join` is the campaign id; the booleans travel as text. An unknown or closed campaign is refused (400 naming `join`) and nothing is stored. With `subscribeToCinCinVinoNewsletter` the address goes on the campaign list through the double opt-in.',
      body: campaignSchema,
      answer: 'Taken part (or had already)',
    },
    (request, lang) =>
      participate(app.db, request.body, {
        siteId: request.site.id,
        lang,
        mail: mailContext(request, lang),
      }),
  );

  siteListRoute(
    app,
    NEWS_CATEGORIES_API,
    {
      tags: ['subscriptions'],
      summary: 'The news-release categories of the site one can subscribe to',
      item: categorySchema,
      answer: 'The categories in order',
    },
    newsCategories,
  );

  subscriptionPost(
    app,
    limit,
    NEWS_SUBSCRIBE_API,
    {
      summary: 'Subscribes an address to news-release categories and the newsletter',
      description:
        'At least one category or `subscribeToUutiskirje` (else 400 naming `informationTypes`); every category must be one of the site’s in the request’s language. Double opt-in as the newsletter.',
      body: newsSubscribeSchema,
      answer: 'Accepted',
    },
    async (request, lang) => {
      const t = serverT(lang);
      const lists = await newsReleaseLists(
        app.db,
        request.site.id,
        lang,
        request.body.informationTypes,
      );
      if (request.body.subscribeToUutiskirje) lists.push(newsletterList(t));
      if (lists.length === 0) throw new Invalid({ informationTypes: CHOOSE_ONE_ERROR });
      await subscribeAddress(request, lang, {
        lists,
        source: 'news-releases',
        consentText: t('subscribe.consent.newsReleases'),
      });
    },
  );
}
