import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { serverT } from '../../../i18n/catalogues.ts';
import type { MessageKey } from '../../../i18n/fi.ts';
import { localReturnPath } from '../../../server/return-path.ts';
import {
  ACCOUNT_PAGES,
  type AccountPageKit,
  accountFormRoute,
  Field,
  Form,
  type Shown as PostShown,
  sentBack,
} from './account-page-parts.server.tsx';
import { logIn, register, sessionCustomerId } from './accounts.server.ts';
import { RETURN_PARAM, withReturn } from './return-path.ts';
import { accountContext, LIMITS, registrationMail } from './routes.server.ts';
import { loginSchema, registerSchema } from './schemas.ts';

/**
 * 'Kirjaudu sisään' and 'Rekisteröidy': an address and a password, and `paluu`, the local page
 * to go back to after a success (decision 029), carried through both pages.
 */

/** What a form shows: what was typed, the errors, the answer's status, `paluu`. */
type Shown = PostShown & { back?: string | null };

/** The address and password form that both pages are, with the links under it. */
function CredentialsForm(props: {
  request: FastifyRequest;
  action: string;
  submit: MessageKey;
  password: { label: MessageKey; autoComplete: string };
  shown: Shown;
  links: ReactNode;
}) {
  const { request, shown } = props;
  const { lang } = request.locale;
  const values = shown.values ?? {};
  const errors = shown.errors ?? {};
  return (
    <>
      <Form
        action={props.action}
        xsrf={request.session.derive('xsrf')}
        submit={props.submit}
        lang={lang}
        back={shown.back ?? null}
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
          label={props.password.label}
          type="password"
          autoComplete={props.password.autoComplete}
          values={values}
          errors={errors}
          lang={lang}
        />
      </Form>
      {props.links}
    </>
  );
}

function loginPage(
  kit: AccountPageKit,
  request: FastifyRequest,
  reply: FastifyReply,
  shown: Shown,
) {
  const t = serverT(request.locale.lang);
  return kit.page(request, reply, {
    title: 'account.login.title',
    errors: shown.errors ?? {},
    ...(shown.status ? { status: shown.status } : {}),
    body: (
      <CredentialsForm
        request={request}
        action={ACCOUNT_PAGES.login}
        submit="account.login.submit"
        password={{ label: 'account.field.password', autoComplete: 'current-password' }}
        shown={shown}
        links={
          <>
            <p>
              <a href={ACCOUNT_PAGES.resetRequest}>{t('account.login.forgot')}</a>
            </p>
            <p>
              <a href={withReturn(ACCOUNT_PAGES.register, shown.back ?? null)}>
                {t('account.login.toRegister')}
              </a>
            </p>
          </>
        }
      />
    ),
  });
}

/** The register page; after a post, the same words whether the address has an account or not (decision 075). */
function registerPage(
  kit: AccountPageKit,
  request: FastifyRequest,
  reply: FastifyReply,
  shown: Shown & { sentTo?: string },
) {
  const t = serverT(request.locale.lang);
  return kit.page(request, reply, {
    title: 'account.register.title',
    errors: shown.errors ?? {},
    ...(shown.status ? { status: shown.status } : {}),
    body: shown.sentTo ? (
      <p role="status">{t('account.register.sent', { email: shown.sentTo })}</p>
    ) : (
      <CredentialsForm
        request={request}
        action={ACCOUNT_PAGES.register}
        submit="account.register.submit"
        password={{ label: 'account.field.newPassword', autoComplete: 'new-password' }}
        shown={shown}
        links={
          <p>
            <a href={withReturn(ACCOUNT_PAGES.login, shown.back ?? null)}>
              {t('account.register.toLogin')}
            </a>
          </p>
        }
      />
    ),
  });
}

const askedBack = (request: FastifyRequest<{ Querystring: Record<string, unknown> }>) =>
  localReturnPath(request.query[RETURN_PARAM]);

export function signInPages(fastify: FastifyInstance, kit: AccountPageKit) {
  const kept = (request: FastifyRequest) => ({ back: sentBack(request) });

  fastify.get<{ Querystring: Record<string, unknown> }>(
    ACCOUNT_PAGES.login,
    async (request, reply) => {
      const back = askedBack(request);
      if (await sessionCustomerId(request.session)) {
        return reply.redirect(back ?? ACCOUNT_PAGES.account, 303);
      }
      return loginPage(kit, request, reply, { back });
    },
  );
  accountFormRoute(fastify, {
    path: ACCOUNT_PAGES.login,
    rateLimit: LIMITS.login,
    schema: loginSchema,
    kept,
    show: (request, reply, shown) => loginPage(kit, request, reply, shown),
    use: async (request, reply, credentials, { back }) => {
      await kit.perAccount.login(request);
      await logIn(accountContext(request), credentials);
      return reply.redirect(back ?? ACCOUNT_PAGES.account, 303);
    },
  });

  fastify.get<{ Querystring: Record<string, unknown> }>(
    ACCOUNT_PAGES.register,
    async (request, reply) => registerPage(kit, request, reply, { back: askedBack(request) }),
  );
  accountFormRoute(fastify, {
    path: ACCOUNT_PAGES.register,
    rateLimit: LIMITS.register,
    schema: registerSchema,
    kept,
    show: (request, reply, shown) => registerPage(kit, request, reply, shown),
    use: async (request, reply, input, { back }) => {
      await kit.perAccount.register(request);
      await register(fastify.db, { ...input, returnPath: back }, registrationMail(request));
      return registerPage(kit, request, reply, { sentTo: input.email });
    },
  });
}
