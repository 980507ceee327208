import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { serverT } from '../../../i18n/catalogues.ts';
import type { MessageKey } from '../../../i18n/fi.ts';
import type { FieldErrors } from '../../../server/errors.ts';
import { localReturnPath } from '../../../server/return-path.ts';
import {
  ACCOUNT_PAGES,
  type AccountPageKit,
  accountFormRoute,
  Field,
  Form,
  sentToken,
  type Values,
} from './account-page-parts.server.tsx';
import {
  confirmEmail,
  confirmRegistration,
  requestPasswordReset,
  resetPassword,
} from './accounts.server.ts';
import { accountContext, LIMITS, resetPageUrl } from './routes.server.ts';
import {
  registerConfirmSchema,
  resetRequestSchema,
  resetSchema,
  verifyEmailSchema,
} from './schemas.ts';

/**
 * The pages that the account mails link to. A link opens a page with a button, not the change
 * itself: a mail scanner that follows links must not use the token up (as the subscriptions'
 * links, decision 038), and the post carries the anti-forgery field. The link's token has no field
 * on the page: a refused token is the form's own error.
 */

/** One page a mailed link opens, whose button posts the link's token back. */
interface LinkPage {
  path: string;
  title: MessageKey;
  intro: MessageKey;
  submit: MessageKey;
  rateLimit: { max: number; timeWindow: number };
  schema: typeof registerConfirmSchema | typeof verifyEmailSchema;
  /** The form's error for a link that is not one. */
  refused: MessageKey;
  /** Uses the token and answers (the page that says it is done, or a redirect); throws a refusal. */
  use: (request: FastifyRequest, reply: FastifyReply, token: string) => Promise<FastifyReply>;
}

function linkPage(
  kit: AccountPageKit,
  spec: LinkPage,
  request: FastifyRequest,
  reply: FastifyReply,
  shown: { token: string; errors?: FieldErrors; status?: number },
) {
  const { lang } = request.locale;
  return kit.page(request, reply, {
    title: spec.title,
    errors: shown.errors ?? {},
    ...(shown.status ? { status: shown.status } : {}),
    body: (
      <>
        <p>{serverT(lang)(spec.intro)}</p>
        <Form
          action={spec.path}
          xsrf={request.session.derive('xsrf')}
          submit={spec.submit}
          lang={lang}
        >
          <input type="hidden" name="token" value={shown.token} />
        </Form>
      </>
    ),
  });
}

function linkPageRoutes(fastify: FastifyInstance, kit: AccountPageKit, spec: LinkPage) {
  fastify.get<{ Querystring: { token?: unknown } }>(spec.path, async (request, reply) => {
    const token = typeof request.query.token === 'string' ? request.query.token : '';
    return linkPage(kit, spec, request, reply, { token });
  });
  accountFormRoute(fastify, {
    path: spec.path,
    rateLimit: spec.rateLimit,
    schema: spec.schema,
    kept: (request) => ({ token: sentToken(request) }),
    show: (request, reply, shown) => linkPage(kit, spec, request, reply, shown),
    use: (request, reply, input) => spec.use(request, reply, input.token),
    shownErrors: (errors, cause) => ({
      _: cause === 'invalid' ? spec.refused : (errors.token ?? errors._ ?? spec.refused),
    }),
  });
}

/** A page that says what the link did, with the way on. */
function donePage(
  kit: AccountPageKit,
  request: FastifyRequest,
  reply: FastifyReply,
  title: MessageKey,
  done: ReactNode,
) {
  return kit.page(request, reply, { title, errors: {}, body: done });
}

export function linkPages(fastify: FastifyInstance, kit: AccountPageKit) {
  // Confirms a registration: the account is made and logged in, then goes to `paluu`.
  linkPageRoutes(fastify, kit, {
    path: ACCOUNT_PAGES.confirm,
    title: 'account.confirm.title',
    intro: 'account.confirm.intro',
    submit: 'account.confirm.submit',
    rateLimit: LIMITS.register,
    schema: registerConfirmSchema,
    refused: 'account.error.registrationToken',
    use: async (request, reply, token) => {
      const { returnPath } = await confirmRegistration(accountContext(request), token);
      return reply.redirect(localReturnPath(returnPath) ?? ACCOUNT_PAGES.account, 303);
    },
  });

  // Verifies the address of an account made before registration went by a link (decision 082).
  linkPageRoutes(fastify, kit, {
    path: ACCOUNT_PAGES.verify,
    title: 'account.verify.title',
    intro: 'account.verify.intro',
    submit: 'account.verify.submit',
    rateLimit: LIMITS.reset,
    schema: verifyEmailSchema,
    refused: 'account.error.verifyToken',
    use: async (request, reply, token) => {
      await confirmEmail(fastify.db, token);
      const t = serverT(request.locale.lang);
      return donePage(
        kit,
        request,
        reply,
        'account.verify.title',
        <p role="status" data-verified="true">
          {t('account.verify.done')}{' '}
          <a href={ACCOUNT_PAGES.account}>{t('account.verify.toAccount')}</a>
        </p>,
      );
    },
  });

  resetRequestPage(fastify, kit);
  newPasswordPage(fastify, kit);
}

/** 'Unohtuiko salasana?': a reset link is asked for by address (the same answer either way). */
function resetRequestPage(fastify: FastifyInstance, kit: AccountPageKit) {
  const requestPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    shown: { values?: Values; errors?: FieldErrors; status?: number; sent?: boolean },
  ) => {
    const { lang } = request.locale;
    const t = serverT(lang);
    return kit.page(request, reply, {
      title: 'account.resetRequest.title',
      errors: shown.errors ?? {},
      ...(shown.status ? { status: shown.status } : {}),
      body: shown.sent ? (
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
              values={shown.values ?? {}}
              errors={shown.errors ?? {}}
              lang={lang}
            />
          </Form>
        </>
      ),
    });
  };
  fastify.get(ACCOUNT_PAGES.resetRequest, async (request, reply) =>
    requestPage(request, reply, {}),
  );
  accountFormRoute(fastify, {
    path: ACCOUNT_PAGES.resetRequest,
    rateLimit: LIMITS.reset,
    schema: resetRequestSchema,
    kept: () => ({}),
    show: requestPage,
    use: async (request, reply, { email }) => {
      await kit.perAccount.reset(request);
      await requestPasswordReset(fastify.db, {
        email,
        lang: request.locale.lang,
        resetPageUrl: resetPageUrl(request),
        mailKey: fastify.config.forms.encryptionKey,
      });
      return requestPage(request, reply, { sent: true });
    },
  });
}

/** The page the reset link opens: a new password, posted with the link's token. */
function newPasswordPage(fastify: FastifyInstance, kit: AccountPageKit) {
  const resetPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    shown: { token: string; errors?: FieldErrors; status?: number },
  ) => {
    const { lang } = request.locale;
    return kit.page(request, reply, {
      title: 'account.reset.title',
      errors: shown.errors ?? {},
      ...(shown.status ? { status: shown.status } : {}),
      body: (
        <Form
          action={ACCOUNT_PAGES.reset}
          xsrf={request.session.derive('xsrf')}
          submit="account.reset.submit"
          lang={lang}
        >
          <input type="hidden" name="token" value={shown.token} />
          <Field
            name="password"
            label="account.field.newPassword"
            type="password"
            autoComplete="new-password"
            values={{}}
            errors={shown.errors ?? {}}
            lang={lang}
          />
        </Form>
      ),
    });
  };
  fastify.get<{ Querystring: { token?: unknown } }>(ACCOUNT_PAGES.reset, async (request, reply) => {
    const token = typeof request.query.token === 'string' ? request.query.token : '';
    return resetPage(request, reply, { token });
  });
  accountFormRoute(fastify, {
    path: ACCOUNT_PAGES.reset,
    rateLimit: LIMITS.reset,
    schema: resetSchema,
    kept: (request) => ({ token: sentToken(request) }),
    show: resetPage,
    use: async (request, reply, input) => {
      await resetPassword(fastify.db, input);
      const t = serverT(request.locale.lang);
      return donePage(
        kit,
        request,
        reply,
        'account.reset.title',
        <p role="status">
          {t('account.reset.done')} <a href={ACCOUNT_PAGES.login}>{t('account.login.title')}</a>
        </p>,
      );
    },
  });
}
