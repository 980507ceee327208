import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { serverT } from '../../../i18n/catalogues.ts';
import type { MessageKey } from '../../../i18n/fi.ts';
import type { FieldErrors } from '../../../server/errors.ts';
import { FORM_TOKEN_FIELD } from '../../../server/form-posts.ts';
import type { Lang } from '../../../sites/types.ts';
import { CustomerOrders } from '../orders/order-list.server.tsx';
import { ordersOfCustomer } from '../orders/payment-returns.server.ts';
import {
  ACCOUNT_PAGES,
  type AccountPageKit,
  errorsOf,
  Field,
  FORBIDDEN,
  Form,
  parsed,
  postedFields,
  strings,
  type Values,
} from './account-page-parts.server.tsx';
import {
  changePassword,
  customerAnswer,
  emailVerified,
  logOut,
  passwordOutdatedOf,
  resendVerification,
  saveAddress,
  sessionCustomerId,
} from './accounts.server.ts';
import styles from './pages.module.css';
import { accountContext, LIMITS, verificationMail } from './routes.server.ts';
import {
  ADDRESS_FIELDS,
  type Address,
  addressFormSchema,
  type Customer,
  passwordChangeSchema,
} from './schemas.ts';

/**
 * 'Oma tili' (`/oma-tili`), the logged-in customer's page: the address's verification, the
 * addresses and the form to edit them, the password, the orders, and logging out. Each form posts
 * to the page with its `action`; a success goes back with 303 and a notice in the query.
 */

type Notice = 'address' | 'password' | 'verificationSent';

const NOTICES: Record<Notice, MessageKey> = {
  address: 'account.page.saved',
  password: 'account.page.passwordChanged',
  verificationSent: 'account.page.verificationSent',
};

/** What the page shows on top of the customer's data: a post's notice, or what was typed. */
interface Shown {
  values?: Values;
  errors?: FieldErrors;
  notice?: Notice | null;
}

function AddressView({ address, lang }: { address: Address; lang: Lang }) {
  if (!address.streetAddress) return <p>{serverT(lang)('account.page.noAddress')}</p>;
  return (
    <p className={styles.address}>
      {`${address.firstName} ${address.lastName}`}
      <br />
      {address.streetAddress}
      <br />
      {`${address.postalCode} ${address.city}`}
    </p>
  );
}

/** Verified, or a button that mails a new verification link (decision 082). */
function EmailVerification(props: { verified: boolean; xsrf: string; lang: Lang }) {
  const t = serverT(props.lang);
  if (props.verified) return <p data-email-verified="true">{t('account.page.emailVerified')}</p>;
  return (
    <form method="post" action={ACCOUNT_PAGES.account} data-email-verified="false">
      <p>{t('account.page.emailUnverified')}</p>
      <input type="hidden" name={FORM_TOKEN_FIELD} value={props.xsrf} />
      <input type="hidden" name="action" value="verify-email" />
      <p>
        <button type="submit">{t('account.page.resendVerification')}</button>
      </p>
    </form>
  );
}

/** The delivery address and phone, as stored or as typed into a refused post. */
function AddressForm(props: {
  customer: Customer;
  values: Values | undefined;
  errors: FieldErrors;
  xsrf: string;
  lang: Lang;
}) {
  const { customer, values, errors, lang } = props;
  const t = serverT(lang);
  const stored: Values = {
    ...customer.deliveryAddress,
    phoneCountryCode: customer.phoneCountryCode,
    phoneNumber: customer.phoneNumber,
  };
  const shown: Values = { ...(values ?? stored) };
  shown.phoneCountryCode ||= '+358';
  const privateError = errors.isPrivateCustomer;
  return (
    <Form action={ACCOUNT_PAGES.account} xsrf={props.xsrf} submit="account.page.save" lang={lang}>
      <input type="hidden" name="action" value="address" />
      {ADDRESS_FIELDS.map((field) => (
        <Field key={field.name} {...field} values={shown} errors={errors} lang={lang} />
      ))}
      <p className={styles.check}>
        <input
          id="field-isPrivateCustomer"
          type="checkbox"
          name="isPrivateCustomer"
          required
          defaultChecked={values ? values.isPrivateCustomer === 'on' : customer.isPrivateCustomer}
          aria-invalid={privateError ? true : undefined}
          aria-describedby={privateError ? 'field-isPrivateCustomer-error' : undefined}
        />{' '}
        <label htmlFor="field-isPrivateCustomer">{t('account.field.isPrivateCustomer')}</label>
        {privateError ? (
          <span id="field-isPrivateCustomer-error">{t(privateError as MessageKey)}</span>
        ) : null}
      </p>
    </Form>
  );
}

function PasswordForm(props: { errors: FieldErrors; xsrf: string; lang: Lang }) {
  const { errors, lang } = props;
  return (
    <Form
      action={ACCOUNT_PAGES.account}
      xsrf={props.xsrf}
      submit="account.page.passwordSave"
      lang={lang}
    >
      <input type="hidden" name="action" value="password" />
      <Field
        name="currentPassword"
        label="account.field.currentPassword"
        type="password"
        autoComplete="current-password"
        values={{}}
        errors={errors}
        lang={lang}
      />
      <Field
        name="newPassword"
        label="account.field.newPassword"
        type="password"
        autoComplete="new-password"
        values={{}}
        errors={errors}
        lang={lang}
      />
    </Form>
  );
}

async function accountPage(
  kit: AccountPageKit,
  request: FastifyRequest,
  reply: FastifyReply,
  customerId: string,
  shown: Shown,
) {
  const { db } = request.server;
  const { lang } = request.locale;
  const t = serverT(lang);
  const customer = await customerAnswer(db, customerId);
  const passwordOutdated = passwordOutdatedOf(await request.session.get());
  const verified = await emailVerified(db, customerId);
  const orders = await ordersOfCustomer(db, customerId);
  const xsrf = request.session.derive('xsrf');
  const errors = shown.errors ?? {};
  return kit.page(request, reply, {
    title: 'account.page.title',
    errors,
    body: (
      <>
        <p>{t('account.page.loggedInAs', { email: customer.email })}</p>
        {shown.notice ? (
          <p role="status">{t(NOTICES[shown.notice], { email: customer.email })}</p>
        ) : null}
        <EmailVerification verified={verified} xsrf={xsrf} lang={lang} />
        {passwordOutdated ? (
          <p className={styles.notice}>
            {t('account.page.passwordOutdated')}{' '}
            <a href="#field-currentPassword">{t('account.page.passwordTitle')}</a>
          </p>
        ) : null}
        <h2>{t('account.page.addresses')}</h2>
        <h3>{t('account.page.deliveryAddress')}</h3>
        <AddressView address={customer.deliveryAddress} lang={lang} />
        <h3>{t('account.page.billingAddress')}</h3>
        <AddressView address={customer.billingAddress} lang={lang} />
        <h3>{t('account.page.editAddress')}</h3>
        <AddressForm
          customer={customer}
          values={shown.values}
          errors={errors}
          xsrf={xsrf}
          lang={lang}
        />
        <h2>{t('account.page.passwordTitle')}</h2>
        <PasswordForm errors={errors} xsrf={xsrf} lang={lang} />
        <h2>{t('account.page.orders')}</h2>
        <CustomerOrders orders={orders} lang={lang} />
        <form method="post" action={ACCOUNT_PAGES.account} className={styles.logout}>
          <input type="hidden" name={FORM_TOKEN_FIELD} value={xsrf} />
          <input type="hidden" name="action" value="logout" />
          <button type="submit">{t('account.page.logout')}</button>
        </form>
      </>
    ),
  });
}

/** The page is the logged-in customer's: anyone else goes to the login page. */
async function forCustomer(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: (customerId: string) => Promise<FastifyReply>,
) {
  const customerId = await sessionCustomerId(request.session);
  return customerId ? answer(customerId) : reply.redirect(ACCOUNT_PAGES.login, 303);
}

/** The notice of the query a post's redirect set. */
function noticeOf(query: { tallennettu?: unknown; vahvistus?: unknown }): Notice | null {
  if (query.tallennettu === '1') return 'address';
  if (query.tallennettu === 'salasana') return 'password';
  if (query.vahvistus === 'lahetetty') return 'verificationSent';
  return null;
}

export function accountPageOfCustomer(fastify: FastifyInstance, kit: AccountPageKit) {
  fastify.get<{ Querystring: { tallennettu?: unknown; vahvistus?: unknown } }>(
    ACCOUNT_PAGES.account,
    async (request, reply) =>
      forCustomer(request, reply, (customerId) =>
        accountPage(kit, request, reply, customerId, { notice: noticeOf(request.query) }),
      ),
  );

  /** What each of the page's forms does; the address form is the default. */
  const actions = {
    logout: async (request: FastifyRequest, reply: FastifyReply) => {
      await logOut(request.session);
      return reply.redirect('/', 303);
    },
    password: async (request: FastifyRequest, reply: FastifyReply, customerId: string) => {
      const input = parsed(passwordChangeSchema, postedFields(request));
      if ('errors' in input) {
        return accountPage(kit, request, reply, customerId, { errors: input.errors });
      }
      try {
        await kit.perAccount.passwordChange(request);
        await changePassword(accountContext(request), customerId, input.data);
      } catch (error) {
        const errors = errorsOf(error);
        if (!errors) throw error;
        return accountPage(kit, request, reply, customerId, { errors });
      }
      return reply.redirect(`${ACCOUNT_PAGES.account}?tallennettu=salasana`, 303);
    },
    'verify-email': async (request: FastifyRequest, reply: FastifyReply, customerId: string) => {
      // The same answer whether a mail went or the account's budget of mails was spent.
      await resendVerification(fastify.db, {
        customerId,
        lang: request.locale.lang,
        mail: verificationMail(request),
      });
      return reply.redirect(`${ACCOUNT_PAGES.account}?vahvistus=lahetetty`, 303);
    },
    address: async (request: FastifyRequest, reply: FastifyReply, customerId: string) => {
      const body = postedFields(request);
      const values = strings(body);
      const input = parsed(addressFormSchema, body);
      if ('errors' in input) {
        return accountPage(kit, request, reply, customerId, { values, errors: input.errors });
      }
      await saveAddress(fastify.db, customerId, input.data);
      return reply.redirect(`${ACCOUNT_PAGES.account}?tallennettu=1`, 303);
    },
  };
  const actionOf = (request: FastifyRequest) => {
    const asked = postedFields(request).action;
    return asked === 'logout' || asked === 'password' || asked === 'verify-email'
      ? actions[asked]
      : actions.address;
  };

  fastify.post(
    ACCOUNT_PAGES.account,
    {
      config: {
        rateLimit: LIMITS.customer,
        formPost: {
          refused: (request, reply) =>
            forCustomer(request, reply, (customerId) =>
              accountPage(kit, request, reply, customerId, { errors: FORBIDDEN }),
            ),
        },
      },
    },
    async (request, reply) =>
      forCustomer(request, reply, (customerId) => actionOf(request)(request, reply, customerId)),
  );
}
