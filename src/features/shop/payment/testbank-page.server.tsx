import type { FastifyInstance, FastifyRequest } from 'fastify';
import { serverT } from '../../../i18n/catalogues.ts';
import type { PageLayout } from '../../../render/render-page.tsx';
import { NotFound } from '../../../server/errors.ts';
import { acceptFormPosts } from '../../../server/form-posts.ts';
import { tokenMatches } from '../../../server/plugins/xsrf.ts';
import { isShopSite } from '../../../sites/shop.ts';
import type { Lang } from '../../../sites/types.ts';
import { PlainPageForm, type PlainPageFrame, plainPages } from '../plain-page.server.tsx';
import { moneyString } from '../schemas.ts';
import { testBank } from './providers.server.ts';
import styles from './testbank.module.css';
import { TEST_BANK_PATH, type TestBankTicket } from './testbank.server.ts';

/** The anti-forgery field of the test bank's form: bound to the visitor's session. */
const XSRF_PURPOSE = 'payment-test-bank';

interface PayProps {
  lang: Lang;
  sealed: string;
  xsrf: string;
  ticket: TestBankTicket;
}

/** The test bank's page's frame (`plainPages`). */
const FRAME: PlainPageFrame = {
  texts: 'shop.testBank',
  className: styles.bank,
  titleId: 'test-bank-title',
};

function TestBankPay({ lang, sealed, xsrf, ticket }: PayProps) {
  const t = serverT(lang);
  return (
    <PlainPageForm
      lang={lang}
      {...FRAME}
      action={TEST_BANK_PATH}
      fields={{ maksu: sealed, xsrf }}
      formClassName={styles.actions}
      actions={
        <>
          <button type="submit" name="paatos" value="ok" className={styles.primary}>
            {t('shop.testBank.approve')}
          </button>
          <button type="submit" name="paatos" value="fail" className={styles.secondary}>
            {t('shop.testBank.cancel')}
          </button>
        </>
      }
    >
      <dl className={styles.facts}>
        <dt>{t('shop.testBank.amount')}</dt>
        <dd className={styles.amount}>{`${moneyString(ticket.amountCents)} €`}</dd>
        <dt>{t('shop.testBank.reference')}</dt>
        <dd>{ticket.reference}</dd>
      </dl>
    </PlainPageForm>
  );
}

/**
 * The test bank's page (decision 024), on the shop and only while `PAYMENT_PROVIDER` is
 * `testbank`: GET shows the sum of the payment its signed link carries, with 'Hyväksy maksu' and
 * 'Peruuta'; the POST, with the page's anti-forgery field and from the same origin, sends the
 * shopper to the order's redirect URL with signed `checkout-` parameters (status `ok` or `fail`).
 * Plain HTML: it works without JavaScript. A GET changes nothing.
 */
export function testBankPageRoutes(layout: PageLayout) {
  return async (fastify: FastifyInstance) => {
    // Only this plugin's routes take a classic form post; everything else stays JSON.
    acceptFormPosts(fastify, 8192);
    const bank = testBank(fastify);
    // The page's link and form carry the payment: no cache keeps them (this plugin's routes only;
    // it runs after the page renderer's and the shop's cache headers).
    fastify.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    function available(request: FastifyRequest): void {
      if (!isShopSite(request.site) || fastify.config.payment.provider !== 'testbank') {
        throw new NotFound();
      }
    }

    const { page, refused } = plainPages(layout, FRAME);

    fastify.get<{ Querystring: { maksu?: unknown } }>(TEST_BANK_PATH, async (request, reply) => {
      available(request);
      const { lang } = request.locale;
      const sealed = request.query.maksu;
      const ticket = bank.openTicket(sealed);
      if (!ticket || typeof sealed !== 'string') {
        return refused(request, reply, 404, 'expired');
      }
      return page(
        request,
        reply,
        200,
        <TestBankPay
          lang={lang}
          sealed={sealed}
          xsrf={request.session.derive(XSRF_PURPOSE)}
          ticket={ticket}
        />,
      );
    });

    fastify.post<{ Body: Record<string, unknown> | undefined }>(
      TEST_BANK_PATH,
      async (request, reply) => {
        available(request);
        const body = request.body ?? {};
        const fetchSite = request.headers['sec-fetch-site'];
        if (
          (fetchSite !== undefined && fetchSite !== 'same-origin') ||
          !tokenMatches(body.xsrf, request.session.derive(XSRF_PURPOSE))
        ) {
          return refused(request, reply, 403, 'forbidden');
        }
        const ticket = bank.openTicket(body.maksu);
        if (!ticket) {
          return refused(request, reply, 404, 'expired');
        }
        if (body.paatos !== 'ok' && body.paatos !== 'fail') {
          return refused(request, reply, 400, 'forbidden');
        }
        await bank.decide(ticket, body.paatos);
        return reply.redirect(bank.returnUrl(ticket, body.paatos), 303);
      },
    );
  };
}
