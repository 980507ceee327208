import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preHandlerAsyncHookHandler,
} from 'fastify';
import type { ReactNode } from 'react';
import { serverT } from '../../i18n/catalogues.ts';
import type { MessageKey } from '../../i18n/translate.ts';
import { type PageLayout, renderPage } from '../../render/render-page.tsx';
import { acceptFormPosts } from '../../server/form-posts.ts';
import { clientLimit, perMinute } from '../../server/rate-limit.ts';
import { CONFIRM_PAGE, UNSUBSCRIBE_PAGE } from './schemas.ts';
import { confirmSubscription, unsubscribe, verifiedUnsubscribeIds } from './store.server.ts';
import styles from './widgets/subscriptions.module.css';

/** Tries at the mailed links per client and minute (a token is 256 bits; this keeps logs calm). */
export const LINK_LIMIT = { name: 'subscribe-link', ...perMinute(30) };

type Query = { token?: unknown; s?: unknown; sig?: unknown };

function text(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, 512) : '';
}

/**
 * The pages the mails link to (decision 038). Opening a link only shows a button: the change is
 * a POST, so a mail scanner that fetches every link confirms or cancels nothing. Plain HTML
 * forms; they work without script. The token, or the signed ids, is the only credential.
 */
export function subscriptionPageRoutes(layout: PageLayout) {
  return async (fastify: FastifyInstance) => {
    acceptFormPosts(fastify, 4096);
    const limit = clientLimit(fastify, LINK_LIMIT);
    registerConfirmPages(fastify, layout, limit);
    registerUnsubscribePages(fastify, layout, limit);
  };
}

type Limit = ReturnType<typeof clientLimit>;

/** A page of its own, never cached nor indexed, with the mail link's title and body. */
async function page(
  layout: PageLayout,
  request: FastifyRequest,
  reply: FastifyReply,
  options: { title: MessageKey; status?: number; body: ReactNode },
) {
  const t = serverT(request.locale.lang);
  reply.header('cache-control', 'no-store');
  reply.header('referrer-policy', 'no-referrer');
  return renderPage(request, reply, {
    title: t(options.title),
    status: options.status ?? 200,
    head: <meta name="robots" content="noindex" />,
    body: await layout(
      request,
      <section aria-labelledby="subscribe-page-title" className={`container ${styles.page}`}>
        <h1 id="subscribe-page-title">{t(options.title)}</h1>
        {options.body}
      </section>,
    ),
  });
}

/** A plain form that posts the link's credential back to the page, with its intro and button. */
function form(
  request: FastifyRequest,
  action: string,
  fields: Record<string, string>,
  intro: MessageKey,
  button: MessageKey,
): ReactNode {
  const t = serverT(request.locale.lang);
  return (
    <form method="post" action={`${request.locale.prefix}${action}`}>
      <p>{t(intro)}</p>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={styles.submit}>
        {t(button)}
      </button>
    </form>
  );
}

function status(request: FastifyRequest, key: MessageKey) {
  return <p role="status">{serverT(request.locale.lang)(key)}</p>;
}

// Each page also under the site's other languages' prefixes (`/en/tilaus/vahvista`): the mail
// links there in the subscriber's language. A prefix that is not one of the site's is no page.
function paths(path: string) {
  return [path, `/:lang${path}`];
}
const ownPrefix: preHandlerAsyncHookHandler = async (request, reply) => {
  const { lang } = request.params as { lang?: string };
  if (lang !== undefined && request.locale.prefix !== `/${lang}`) return reply.callNotFound();
};

/** The page of the confirmation link, and its button's POST that confirms the subscription. */
function registerConfirmPages(fastify: FastifyInstance, layout: PageLayout, limit: Limit) {
  for (const path of paths(CONFIRM_PAGE))
    fastify.get<{ Querystring: Query }>(path, { preHandler: ownPrefix }, async (request, reply) => {
      const token = text(request.query.token);
      return page(layout, request, reply, {
        title: 'subscribe.page.confirmTitle',
        body: form(
          request,
          CONFIRM_PAGE,
          { token },
          'subscribe.page.confirmIntro',
          'subscribe.page.confirmButton',
        ),
      });
    });

  for (const path of paths(CONFIRM_PAGE))
    fastify.post<{ Body: Query }>(
      path,
      { preValidation: limit, preHandler: ownPrefix },
      async (request, reply) => {
        const confirmed = await confirmSubscription(fastify.db, text(request.body?.token));
        return page(layout, request, reply, {
          title: 'subscribe.page.confirmTitle',
          status: confirmed.length ? 200 : 400,
          body: status(
            request,
            confirmed.length ? 'subscribe.page.confirmed' : 'subscribe.page.confirmInvalid',
          ),
        });
      },
    );
}

/** The page of the unsubscribe link, and its button's POST that ends the subscriptions. */
function registerUnsubscribePages(fastify: FastifyInstance, layout: PageLayout, limit: Limit) {
  for (const path of paths(UNSUBSCRIBE_PAGE))
    fastify.get<{ Querystring: Query }>(path, { preHandler: ownPrefix }, async (request, reply) => {
      const s = text(request.query.s);
      const sig = text(request.query.sig);
      const ids = verifiedUnsubscribeIds(fastify.config.sessionSecret, s, sig);
      return page(layout, request, reply, {
        title: 'subscribe.page.unsubscribeTitle',
        status: ids ? 200 : 400,
        body: ids
          ? form(
              request,
              UNSUBSCRIBE_PAGE,
              { s, sig },
              'subscribe.page.unsubscribeIntro',
              'subscribe.page.unsubscribeButton',
            )
          : status(request, 'subscribe.page.unsubscribeInvalid'),
      });
    });

  for (const path of paths(UNSUBSCRIBE_PAGE))
    fastify.post<{ Body: Query }>(
      path,
      { preValidation: limit, preHandler: ownPrefix },
      async (request, reply) => {
        const ids = verifiedUnsubscribeIds(
          fastify.config.sessionSecret,
          text(request.body?.s),
          text(request.body?.sig),
        );
        if (ids) await unsubscribe(fastify.db, ids);
        return page(layout, request, reply, {
          title: 'subscribe.page.unsubscribeTitle',
          status: ids ? 200 : 400,
          body: status(
            request,
            ids ? 'subscribe.page.unsubscribed' : 'subscribe.page.unsubscribeInvalid',
          ),
        });
      },
    );
}
