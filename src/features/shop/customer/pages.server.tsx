import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import { serverT } from '../../../i18n/catalogues.ts';
import type { MessageKey } from '../../../i18n/fi.ts';
import { renderPage } from '../../../render/render-page.tsx';
import { AppError, type FieldErrors, fieldErrorsOf } from '../../../server/errors.ts';
import { acceptFormPosts, FORM_TOKEN_FIELD } from '../../../server/form-posts.ts';
import { localReturnPath } from '../../../server/return-path.ts';
import type { Lang } from '../../../sites/types.ts';
import type { PageLayout } from '../cart-sync/handover-routes.server.tsx';
import { CustomerOrders } from '../orders/order-list.server.tsx';
import { ordersOfCustomer } from '../orders/payment-returns.server.ts';
import {
  changePassword,
  confirmEmail,
  confirmRegistration,
  customerAnswer,
  emailVerified,
  logIn,
  logOut,
  passwordOutdatedOf,
  register,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  saveAddress,
  sessionCustomerId,
} from './accounts.server.ts';
import styles from './pages.module.css';
import { RETURN_PARAM, withReturn } from './return-path.ts';
import {
  accountContext,
  accountLimits,
  CONFIRM_PAGE_PATH,
  LIMITS,
  LOGIN_PAGE_PATH,
  onShop,
  RESET_PAGE_PATH,
  RESET_REQUEST_PAGE_PATH,
  registrationMail,
  resetPageUrl,
  VERIFY_PAGE_PATH,
  verificationMail,
} from './routes.server.ts';
import {
  type Address,
  addressFormSchema,
  loginSchema,
  passwordChangeSchema,
  registerConfirmSchema,
  registerSchema,
  resetRequestSchema,
  resetSchema,
  verifyEmailSchema,
} from './schemas.ts';

/**
 * The account pages of the shop (decision 025), plain HTML forms that work without script, in
 * the forms' failed-submit pattern: the page comes back with an error summary first (its links
 * lead to the fields), the title prefixed, each field's message beside it and what was typed
 * kept, except passwords. The anti-forgery value is a hidden field (as decision 022).
 */

export const ACCOUNT_PAGES = {
  login: LOGIN_PAGE_PATH,
  register: '/rekisteroidy',
  confirm: CONFIRM_PAGE_PATH,
  resetRequest: RESET_REQUEST_PAGE_PATH,
  reset: RESET_PAGE_PATH,
  verify: VERIFY_PAGE_PATH,
  account: '/oma-tili',
} as const;

type Values = Record<string, string>;

interface FieldProps {
  name: string;
  label: MessageKey;
  type?: string;
  autoComplete?: string;
  values: Values;
  errors: FieldErrors;
  lang: Lang;
}

function Field({ name, label, type = 'text', autoComplete, values, errors, lang }: FieldProps) {
  const t = serverT(lang);
  const error = errors[name];
  const id = `field-${name}`;
  return (
    <p className={styles.field}>
      <label htmlFor={id}>{t(label)}</label>
      <br />
      <input
        id={id}
        name={name}
        type={type}
        required
        autoComplete={autoComplete}
        defaultValue={type === 'password' ? undefined : (values[name] ?? '')}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <>
          <br />
          <span id={`${id}-error`}>{t(error as MessageKey)}</span>
        </>
      ) : null}
    </p>
  );
}

const labels: Record<string, MessageKey> = {
  email: 'account.field.email',
  password: 'account.field.password',
  currentPassword: 'account.field.currentPassword',
  newPassword: 'account.field.newPassword',
  token: 'account.reset.title',
  firstName: 'account.field.firstName',
  lastName: 'account.field.lastName',
  streetAddress: 'account.field.streetAddress',
  postalCode: 'account.field.postalCode',
  city: 'account.field.city',
  phoneCountryCode: 'account.field.phoneCountryCode',
  phoneNumber: 'account.field.phoneNumber',
  isPrivateCustomer: 'account.field.isPrivateCustomer',
  _: 'account.summary',
};

/** Errors with no input of their own on the page (the summary names them without a link). */
const FIELDLESS = new Set(['_', 'token']);

function ErrorSummary({ errors, lang }: { errors: FieldErrors; lang: Lang }) {
  const t = serverT(lang);
  const entries = Object.entries(errors);
  if (entries.length === 0) return null;
  return (
    <div
      role="alert"
      tabIndex={-1}
      id="error-summary"
      aria-labelledby="error-summary-title"
      className={styles.summary}
      // biome-ignore lint/a11y/noAutofocus: the summary of a refused post takes the focus on arrival (the failed-submit pattern); these pages run no script
      autoFocus
    >
      <h2 id="error-summary-title">{t('account.summary')}</h2>
      <ul>
        {entries.map(([field, key]) => {
          const text = `${labels[field] && field !== '_' ? `${t(labels[field])}: ` : ''}${t(key as MessageKey)}`;
          return (
            <li key={field}>
              {/* A link only to a field on the page: the form's own error and the reset link's token have none. */}
              {FIELDLESS.has(field) ? text : <a href={`#field-${field}`}>{text}</a>}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function Form({
  action,
  xsrf,
  children,
  submit,
  lang,
  back,
}: {
  action: string;
  xsrf: string;
  children: ReactNode;
  submit: MessageKey;
  lang: Lang;
  /** `paluu`: the local page to go to after a success (login and register). */
  back?: string | null;
}) {
  return (
    <form method="post" action={action} noValidate className={styles.form}>
      <input type="hidden" name={FORM_TOKEN_FIELD} value={xsrf} />
      {back ? <input type="hidden" name={RETURN_PARAM} value={back} /> : null}
      {children}
      <p>
        <button type="submit">{serverT(lang)(submit)}</button>
      </p>
    </form>
  );
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

function strings(body: Record<string, unknown>): Values {
  const values: Values = {};
  for (const [key, value] of Object.entries(body)) {
    if (
      typeof value === 'string' &&
      key !== FORM_TOKEN_FIELD &&
      !key.toLowerCase().includes('password')
    ) {
      values[key] = value;
    }
  }
  return values;
}

/** Parses a posted form with a schema: its value, or the field errors. */
function parsed<S extends z.ZodType>(
  schema: S,
  body: Record<string, unknown>,
): { data: z.infer<S> } | { errors: FieldErrors } {
  const result = schema.safeParse(body);
  return result.success ? { data: result.data } : { errors: fieldErrorsOf(result.error) };
}

/** A refused use case's field errors (401 login, 409 taken, 400 token, 429). */
function errorsOf(error: unknown): FieldErrors | null {
  if (!(error instanceof AppError)) return null;
  const fields = error.extra?.errors as FieldErrors | undefined;
  if (fields) return fields;
  if (error.status === 429) return { _: 'account.error.tooManyAttempts' };
  return null;
}

export function accountPageRoutes(layout: PageLayout) {
  return async (fastify: FastifyInstance) => {
    acceptFormPosts(fastify, 16 * 1024);
    fastify.addHook('onRequest', async (request) => onShop(request));
    const perAccount = accountLimits(fastify);

    const page = async (
      request: FastifyRequest,
      reply: FastifyReply,
      options: { title: MessageKey; status?: number; errors?: FieldErrors; body: ReactNode },
    ) => {
      const t = serverT(request.locale.lang);
      const failed = options.errors && Object.keys(options.errors).length > 0;
      reply.header('cache-control', 'no-store');
      return renderPage(request, reply, {
        title: failed ? t('account.errorTitle', { title: t(options.title) }) : t(options.title),
        status: options.status ?? (failed ? 400 : 200),
        head: <meta name="robots" content="noindex" />,
        body: await layout(
          request,
          <section aria-labelledby="account-title" className={styles.page}>
            <h1 id="account-title">{t(options.title)}</h1>
            {failed ? (
              <ErrorSummary errors={options.errors ?? {}} lang={request.locale.lang} />
            ) : null}
            {options.body}
          </section>,
        ),
      });
    };

    /** A refused post's error: the anti-forgery field was wrong (the form-post guard). */
    const forbidden = { _: 'account.error.forbidden' };
    /** What the post sent in the field (the return path, the link's token), checked or not. */
    const sent = (request: FastifyRequest, field: string): unknown =>
      (request.body as Record<string, unknown> | undefined)?.[field];
    const sentToken = (request: FastifyRequest) => {
      const token = sent(request, 'token');
      return typeof token === 'string' ? token : '';
    };
    const sentBack = (request: FastifyRequest) => localReturnPath(sent(request, RETURN_PARAM));
    /** Oma tili is the logged-in customer's: anyone else goes to the login page. */
    const forCustomer = async (
      request: FastifyRequest,
      reply: FastifyReply,
      answer: (customerId: string) => Promise<FastifyReply>,
    ) => {
      const customerId = await sessionCustomerId(request.session);
      return customerId ? answer(customerId) : reply.redirect(ACCOUNT_PAGES.login, 303);
    };

    // --- log in ---------------------------------------------------------------------------
    const loginPage = (
      request: FastifyRequest,
      reply: FastifyReply,
      values: Values,
      errors: FieldErrors,
      status?: number,
      back: string | null = null,
    ) => {
      const lang = request.locale.lang;
      const t = serverT(lang);
      return page(request, reply, {
        title: 'account.login.title',
        errors,
        ...(status ? { status } : {}),
        body: (
          <>
            <Form
              action={ACCOUNT_PAGES.login}
              xsrf={request.session.derive('xsrf')}
              submit="account.login.submit"
              lang={lang}
              back={back}
            >
              <Field
                name="email"
                label="account.field.email"
                type="email"
                autoComplete="email"
                values={values}
                errors={errors}
                lang={lang}
              />
              <Field
                name="password"
                label="account.field.password"
                type="password"
                autoComplete="current-password"
                values={values}
                errors={errors}
                lang={lang}
              />
            </Form>
            <p>
              <a href={ACCOUNT_PAGES.resetRequest}>{t('account.login.forgot')}</a>
            </p>
            <p>
              <a href={withReturn(ACCOUNT_PAGES.register, back)}>{t('account.login.toRegister')}</a>
            </p>
          </>
        ),
      });
    };
    fastify.get<{ Querystring: Record<string, unknown> }>(
      ACCOUNT_PAGES.login,
      async (request, reply) => {
        const back = localReturnPath(request.query[RETURN_PARAM]);
        if (await sessionCustomerId(request.session))
          return reply.redirect(back ?? ACCOUNT_PAGES.account, 303);
        return loginPage(request, reply, {}, {}, undefined, back);
      },
    );
    fastify.post(
      ACCOUNT_PAGES.login,
      {
        config: {
          rateLimit: LIMITS.login,
          formPost: {
            refused: (request, reply) =>
              loginPage(request, reply, {}, forbidden, 403, sentBack(request)),
          },
        },
      },
      async (request, reply) => {
        const back = sentBack(request);
        const body = request.body as Record<string, unknown>;
        const values = strings(body);
        const input = parsed(loginSchema, body);
        if ('errors' in input)
          return loginPage(request, reply, values, input.errors, undefined, back);
        try {
          await perAccount.login(request);
          await logIn(accountContext(request), input.data);
        } catch (error) {
          const errors = errorsOf(error);
          if (!errors) throw error;
          return loginPage(
            request,
            reply,
            values,
            errors,
            error instanceof AppError ? error.status : 400,
            back,
          );
        }
        return reply.redirect(back ?? ACCOUNT_PAGES.account, 303);
      },
    );

    // --- register -------------------------------------------------------------------------
    const registerPage = (
      request: FastifyRequest,
      reply: FastifyReply,
      values: Values,
      errors: FieldErrors,
      status?: number,
      back: string | null = null,
      sentTo: string | null = null,
    ) => {
      const lang = request.locale.lang;
      return page(request, reply, {
        title: 'account.register.title',
        errors,
        ...(status ? { status } : {}),
        // The same page whether or not the address has an account (decision 075).
        body: sentTo ? (
          <p role="status">{serverT(lang)('account.register.sent', { email: sentTo })}</p>
        ) : (
          <>
            <Form
              action={ACCOUNT_PAGES.register}
              xsrf={request.session.derive('xsrf')}
              submit="account.register.submit"
              lang={lang}
              back={back}
            >
              <Field
                name="email"
                label="account.field.email"
                type="email"
                autoComplete="email"
                values={values}
                errors={errors}
                lang={lang}
              />
              <Field
                name="password"
                label="account.field.newPassword"
                type="password"
                autoComplete="new-password"
                values={values}
                errors={errors}
                lang={lang}
              />
            </Form>
            <p>
              <a href={withReturn(ACCOUNT_PAGES.login, back)}>
                {serverT(lang)('account.register.toLogin')}
              </a>
            </p>
          </>
        ),
      });
    };
    fastify.get<{ Querystring: Record<string, unknown> }>(
      ACCOUNT_PAGES.register,
      async (request, reply) => {
        const back = localReturnPath(request.query[RETURN_PARAM]);
        return registerPage(request, reply, {}, {}, undefined, back);
      },
    );
    fastify.post(
      ACCOUNT_PAGES.register,
      {
        config: {
          rateLimit: LIMITS.register,
          formPost: {
            refused: (request, reply) =>
              registerPage(request, reply, {}, forbidden, 403, sentBack(request)),
          },
        },
      },
      async (request, reply) => {
        const back = sentBack(request);
        const body = request.body as Record<string, unknown>;
        const values = strings(body);
        const input = parsed(registerSchema, body);
        if ('errors' in input)
          return registerPage(request, reply, values, input.errors, undefined, back);
        try {
          await perAccount.register(request);
          await register(
            fastify.db,
            { ...input.data, returnPath: back },
            registrationMail(request),
          );
        } catch (error) {
          const errors = errorsOf(error);
          if (!errors) throw error;
          return registerPage(
            request,
            reply,
            values,
            errors,
            error instanceof AppError ? error.status : 400,
            back,
          );
        }
        return registerPage(request, reply, {}, {}, undefined, null, input.data.email);
      },
    );

    // --- confirm a registration with the mailed link's token ------------------------------
    const confirmPage = (
      request: FastifyRequest,
      reply: FastifyReply,
      token: string,
      errors: FieldErrors,
      status?: number,
    ) => {
      const lang = request.locale.lang;
      return page(request, reply, {
        title: 'account.confirm.title',
        errors,
        ...(status ? { status } : {}),
        body: (
          <>
            <p>{serverT(lang)('account.confirm.intro')}</p>
            <Form
              action={ACCOUNT_PAGES.confirm}
              xsrf={request.session.derive('xsrf')}
              submit="account.confirm.submit"
              lang={lang}
            >
              <input type="hidden" name="token" value={token} />
            </Form>
          </>
        ),
      });
    };
    // The link opens a page with a button, not the account itself: a mail scanner that follows
    // links must not use the token up, and the post carries the anti-forgery field.
    fastify.get<{ Querystring: { token?: unknown } }>(
      ACCOUNT_PAGES.confirm,
      async (request, reply) => {
        const token = typeof request.query.token === 'string' ? request.query.token : '';
        return confirmPage(request, reply, token, {});
      },
    );
    fastify.post(
      ACCOUNT_PAGES.confirm,
      {
        config: {
          rateLimit: LIMITS.register,
          formPost: {
            refused: (request, reply) =>
              confirmPage(request, reply, sentToken(request), forbidden, 403),
          },
        },
      },
      async (request, reply) => {
        const body = request.body as Record<string, unknown>;
        const token = sentToken(request);
        const input = parsed(registerConfirmSchema, body);
        if ('errors' in input) {
          return confirmPage(request, reply, token, { _: 'account.error.registrationToken' });
        }
        try {
          const { returnPath } = await confirmRegistration(
            accountContext(request),
            input.data.token,
          );
          return reply.redirect(localReturnPath(returnPath) ?? ACCOUNT_PAGES.account, 303);
        } catch (error) {
          const errors = errorsOf(error);
          if (!errors) throw error;
          // The link's token has no field on the page: its error is the form's own.
          return confirmPage(request, reply, token, { _: errors.token ?? errors._ ?? '' });
        }
      },
    );

    // --- ask for a reset link -------------------------------------------------------------
    const resetRequestPage = (
      request: FastifyRequest,
      reply: FastifyReply,
      values: Values,
      errors: FieldErrors,
      sent = false,
      status?: number,
    ) => {
      const lang = request.locale.lang;
      const t = serverT(lang);
      return page(request, reply, {
        title: 'account.resetRequest.title',
        errors,
        ...(status ? { status } : {}),
        body: sent ? (
          <p role="status">{t('account.resetRequest.sent')}</p>
        ) : (
          <>
            <p>{t('account.resetRequest.intro')}</p>
            <Form
              action={ACCOUNT_PAGES.resetRequest}
              xsrf={request.session.derive('xsrf')}
              submit="account.resetRequest.submit"
              lang={lang}
            >
              <Field
                name="email"
                label="account.field.email"
                type="email"
                autoComplete="email"
                values={values}
                errors={errors}
                lang={lang}
              />
            </Form>
          </>
        ),
      });
    };
    fastify.get(ACCOUNT_PAGES.resetRequest, async (request, reply) => {
      return resetRequestPage(request, reply, {}, {});
    });
    fastify.post(
      ACCOUNT_PAGES.resetRequest,
      {
        config: {
          rateLimit: LIMITS.reset,
          formPost: {
            refused: (request, reply) =>
              resetRequestPage(request, reply, {}, forbidden, false, 403),
          },
        },
      },
      async (request, reply) => {
        const body = request.body as Record<string, unknown>;
        const values = strings(body);
        const input = parsed(resetRequestSchema, body);
        if ('errors' in input) return resetRequestPage(request, reply, values, input.errors);
        try {
          await perAccount.reset(request);
        } catch (error) {
          const errors = errorsOf(error);
          if (!errors) throw error;
          return resetRequestPage(request, reply, values, errors, false, 429);
        }
        await requestPasswordReset(fastify.db, {
          email: input.data.email,
          lang: request.locale.lang,
          resetPageUrl: resetPageUrl(request),
          mailKey: fastify.config.forms.encryptionKey,
        });
        return resetRequestPage(request, reply, {}, {}, true);
      },
    );

    // --- set a new password with the link's token -----------------------------------------
    const resetPage = (
      request: FastifyRequest,
      reply: FastifyReply,
      token: string,
      errors: FieldErrors,
      done = false,
      status?: number,
    ) => {
      const lang = request.locale.lang;
      const t = serverT(lang);
      return page(request, reply, {
        title: 'account.reset.title',
        errors,
        ...(status ? { status } : {}),
        body: done ? (
          <p role="status">
            {t('account.reset.done')} <a href={ACCOUNT_PAGES.login}>{t('account.login.title')}</a>
          </p>
        ) : (
          <Form
            action={ACCOUNT_PAGES.reset}
            xsrf={request.session.derive('xsrf')}
            submit="account.reset.submit"
            lang={lang}
          >
            <input type="hidden" name="token" value={token} />
            <Field
              name="password"
              label="account.field.newPassword"
              type="password"
              autoComplete="new-password"
              values={{}}
              errors={errors}
              lang={lang}
            />
          </Form>
        ),
      });
    };
    fastify.get<{ Querystring: { token?: unknown } }>(
      ACCOUNT_PAGES.reset,
      async (request, reply) => {
        const token = typeof request.query.token === 'string' ? request.query.token : '';
        return resetPage(request, reply, token, {});
      },
    );
    fastify.post(
      ACCOUNT_PAGES.reset,
      {
        config: {
          rateLimit: LIMITS.reset,
          formPost: {
            refused: (request, reply) =>
              resetPage(request, reply, sentToken(request), forbidden, false, 403),
          },
        },
      },
      async (request, reply) => {
        const body = request.body as Record<string, unknown>;
        const token = sentToken(request);
        const input = parsed(resetSchema, body);
        if ('errors' in input) return resetPage(request, reply, token, input.errors);
        try {
          await resetPassword(fastify.db, input.data);
        } catch (error) {
          const errors = errorsOf(error);
          if (!errors) throw error;
          return resetPage(request, reply, token, errors);
        }
        return resetPage(request, reply, '', {}, true);
      },
    );

    // --- verify the address with the link's token (decision 082) ---------------------------
    // The link opens a page with a button: the verification is the POST, so a mail scanner that
    // fetches links verifies nothing (as the subscriptions' links, decision 038).
    const verifyPage = (
      request: FastifyRequest,
      reply: FastifyReply,
      token: string,
      errors: FieldErrors,
      done = false,
      status?: number,
    ) => {
      const lang = request.locale.lang;
      const t = serverT(lang);
      return page(request, reply, {
        title: 'account.verify.title',
        errors,
        ...(status ? { status } : {}),
        body: done ? (
          <p role="status" data-verified="true">
            {t('account.verify.done')}{' '}
            <a href={ACCOUNT_PAGES.account}>{t('account.verify.toAccount')}</a>
          </p>
        ) : (
          <>
            <p>{t('account.verify.intro')}</p>
            <Form
              action={ACCOUNT_PAGES.verify}
              xsrf={request.session.derive('xsrf')}
              submit="account.verify.submit"
              lang={lang}
            >
              <input type="hidden" name="token" value={token} />
            </Form>
          </>
        ),
      });
    };
    fastify.get<{ Querystring: { token?: unknown } }>(
      ACCOUNT_PAGES.verify,
      async (request, reply) => {
        const token = typeof request.query.token === 'string' ? request.query.token : '';
        return verifyPage(request, reply, token, {});
      },
    );
    fastify.post(
      ACCOUNT_PAGES.verify,
      {
        config: {
          rateLimit: LIMITS.reset,
          formPost: {
            refused: (request, reply) =>
              verifyPage(request, reply, sentToken(request), forbidden, false, 403),
          },
        },
      },
      async (request, reply) => {
        const body = request.body as Record<string, unknown>;
        const token = sentToken(request);
        const refused = { _: 'account.error.verifyToken' };
        const input = parsed(verifyEmailSchema, body);
        if ('errors' in input) return verifyPage(request, reply, token, refused);
        try {
          await confirmEmail(fastify.db, input.data.token);
        } catch (error) {
          if (!errorsOf(error)) throw error;
          return verifyPage(request, reply, token, refused);
        }
        return verifyPage(request, reply, '', {}, true);
      },
    );

    // --- Oma tili: addresses, orders, log out ----------------------------------------------
    const accountPage = async (
      request: FastifyRequest,
      reply: FastifyReply,
      customerId: string,
      values: Values | null,
      errors: FieldErrors,
      notice: 'address' | 'password' | 'verificationSent' | null = null,
    ) => {
      const lang = request.locale.lang;
      const t = serverT(lang);
      const customer = await customerAnswer(fastify.db, customerId);
      const passwordOutdated = passwordOutdatedOf(await request.session.get());
      const verified = await emailVerified(fastify.db, customerId);
      const orders = await ordersOfCustomer(fastify.db, customerId);
      const shown: Values = values ?? {
        ...customer.deliveryAddress,
        phoneCountryCode: customer.phoneCountryCode,
        phoneNumber: customer.phoneNumber,
      };
      const xsrf = request.session.derive('xsrf');
      return page(request, reply, {
        title: 'account.page.title',
        errors,
        body: (
          <>
            <p>{t('account.page.loggedInAs', { email: customer.email })}</p>
            {notice === 'address' ? <p role="status">{t('account.page.saved')}</p> : null}
            {notice === 'password' ? (
              <p role="status">{t('account.page.passwordChanged')}</p>
            ) : null}
            {notice === 'verificationSent' ? (
              <p role="status">{t('account.page.verificationSent', { email: customer.email })}</p>
            ) : null}
            {verified ? (
              <p data-email-verified="true">{t('account.page.emailVerified')}</p>
            ) : (
              <form method="post" action={ACCOUNT_PAGES.account} data-email-verified="false">
                <p>{t('account.page.emailUnverified')}</p>
                <input type="hidden" name={FORM_TOKEN_FIELD} value={xsrf} />
                <input type="hidden" name="action" value="verify-email" />
                <p>
                  <button type="submit">{t('account.page.resendVerification')}</button>
                </p>
              </form>
            )}
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
            <Form action={ACCOUNT_PAGES.account} xsrf={xsrf} submit="account.page.save" lang={lang}>
              <input type="hidden" name="action" value="address" />
              <Field
                name="firstName"
                label="account.field.firstName"
                autoComplete="given-name"
                values={shown}
                errors={errors}
                lang={lang}
              />
              <Field
                name="lastName"
                label="account.field.lastName"
                autoComplete="family-name"
                values={shown}
                errors={errors}
                lang={lang}
              />
              <Field
                name="streetAddress"
                label="account.field.streetAddress"
                autoComplete="street-address"
                values={shown}
                errors={errors}
                lang={lang}
              />
              <Field
                name="postalCode"
                label="account.field.postalCode"
                autoComplete="postal-code"
                values={shown}
                errors={errors}
                lang={lang}
              />
              <Field
                name="city"
                label="account.field.city"
                autoComplete="address-level2"
                values={shown}
                errors={errors}
                lang={lang}
              />
              <Field
                name="phoneCountryCode"
                label="account.field.phoneCountryCode"
                autoComplete="tel-country-code"
                values={{ phoneCountryCode: shown.phoneCountryCode || '+358' }}
                errors={errors}
                lang={lang}
              />
              <Field
                name="phoneNumber"
                label="account.field.phoneNumber"
                type="tel"
                autoComplete="tel-national"
                values={shown}
                errors={errors}
                lang={lang}
              />
              <p className={styles.check}>
                <input
                  id="field-isPrivateCustomer"
                  type="checkbox"
                  name="isPrivateCustomer"
                  required
                  defaultChecked={
                    values ? values.isPrivateCustomer === 'on' : customer.isPrivateCustomer
                  }
                  aria-invalid={errors.isPrivateCustomer ? true : undefined}
                  aria-describedby={
                    errors.isPrivateCustomer ? 'field-isPrivateCustomer-error' : undefined
                  }
                />{' '}
                <label htmlFor="field-isPrivateCustomer">
                  {t('account.field.isPrivateCustomer')}
                </label>
                {errors.isPrivateCustomer ? (
                  <span id="field-isPrivateCustomer-error">
                    {t(errors.isPrivateCustomer as MessageKey)}
                  </span>
                ) : null}
              </p>
            </Form>
            <h2>{t('account.page.passwordTitle')}</h2>
            <Form
              action={ACCOUNT_PAGES.account}
              xsrf={xsrf}
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
    };
    fastify.get<{ Querystring: { tallennettu?: unknown; vahvistus?: unknown } }>(
      ACCOUNT_PAGES.account,
      async (request, reply) => {
        const saved = request.query.tallennettu;
        const notice =
          saved === '1'
            ? 'address'
            : saved === 'salasana'
              ? 'password'
              : request.query.vahvistus === 'lahetetty'
                ? 'verificationSent'
                : null;
        return forCustomer(request, reply, (customerId) =>
          accountPage(request, reply, customerId, null, {}, notice),
        );
      },
    );
    fastify.post(
      ACCOUNT_PAGES.account,
      {
        config: {
          rateLimit: LIMITS.customer,
          formPost: {
            refused: (request, reply) =>
              forCustomer(request, reply, (customerId) =>
                accountPage(request, reply, customerId, null, forbidden),
              ),
          },
        },
      },
      async (request, reply) =>
        forCustomer(request, reply, async (customerId) => {
          const body = request.body as Record<string, unknown>;
          if (body.action === 'logout') {
            await logOut(request.session);
            return reply.redirect('/', 303);
          }
          if (body.action === 'password') {
            const input = parsed(passwordChangeSchema, body);
            if ('errors' in input)
              return accountPage(request, reply, customerId, null, input.errors);
            try {
              await perAccount.passwordChange(request);
              await changePassword(accountContext(request), customerId, input.data);
            } catch (error) {
              const errors = errorsOf(error);
              if (!errors) throw error;
              return accountPage(request, reply, customerId, null, errors);
            }
            return reply.redirect(`${ACCOUNT_PAGES.account}?tallennettu=salasana`, 303);
          }
          if (body.action === 'verify-email') {
            // The same answer whether a mail went or the account's budget of mails was spent.
            await resendVerification(fastify.db, {
              customerId,
              lang: request.locale.lang,
              mail: verificationMail(request),
            });
            return reply.redirect(`${ACCOUNT_PAGES.account}?vahvistus=lahetetty`, 303);
          }
          const values = strings(body);
          const input = parsed(addressFormSchema, body);
          if ('errors' in input)
            return accountPage(request, reply, customerId, values, input.errors);
          await saveAddress(fastify.db, customerId, input.data);
          return reply.redirect(`${ACCOUNT_PAGES.account}?tallennettu=1`, 303);
        }),
    );
  };
}
