import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import { serverT } from '../../../i18n/catalogues.ts';
import type { MessageKey } from '../../../i18n/fi.ts';
import type { PageLayout } from '../../../render/render-page.tsx';
import { renderPage } from '../../../render/render-page.tsx';
import { AppError, type FieldErrors, fieldErrorsOf } from '../../../server/errors.ts';
import { FORM_TOKEN_FIELD } from '../../../server/form-posts.ts';
import { localReturnPath } from '../../../server/return-path.ts';
import type { Lang } from '../../../sites/types.ts';
import styles from './pages.module.css';
import { RETURN_PARAM } from './return-path.ts';
import {
  accountLimits,
  CONFIRM_PAGE_PATH,
  LOGIN_PAGE_PATH,
  RESET_PAGE_PATH,
  RESET_REQUEST_PAGE_PATH,
  VERIFY_PAGE_PATH,
} from './routes.server.ts';

/**
 * What the account pages (decision 025) share: the page around a form, in the forms'
 * failed-submit pattern (the page comes back with an error summary first, its links lead to the
 * fields, the title prefixed, each field's message beside it and what was typed kept, except
 * passwords), the form with its hidden anti-forgery field, and the reading of a posted form.
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

export type Values = Record<string, string>;

export interface AccountPageOptions {
  title: MessageKey;
  status?: number;
  errors?: FieldErrors;
  body: ReactNode;
}

/** Renders an account page: its title, the error summary of a refused post, the body. */
export type AccountPage = (
  request: FastifyRequest,
  reply: FastifyReply,
  options: AccountPageOptions,
) => Promise<FastifyReply>;

/** What each group of account pages is registered with. */
export interface AccountPageKit {
  page: AccountPage;
  /** The per-account budgets of the account use cases (`accountLimits`). */
  perAccount: ReturnType<typeof accountLimits>;
}

export function accountPageKit(fastify: FastifyInstance, layout: PageLayout): AccountPageKit {
  const page: AccountPage = async (request, reply, options) => {
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
  return { page, perAccount: accountLimits(fastify) };
}

/** A refused post's error: its anti-forgery field was wrong (the form-post guard). */
export const FORBIDDEN: FieldErrors = { _: 'account.error.forbidden' };

/** The posted form's fields. */
export const postedFields = (request: FastifyRequest): Record<string, unknown> =>
  typeof request.body === 'object' && request.body !== null
    ? (request.body as Record<string, unknown>)
    : {};

/** The link's token that the form posted back (also of a refused post, to show the form again). */
export function sentToken(request: FastifyRequest): string {
  const token = postedFields(request).token;
  return typeof token === 'string' ? token : '';
}

/** `paluu` as the form posted it, when it is a local page of this site. */
export const sentBack = (request: FastifyRequest) =>
  localReturnPath(postedFields(request)[RETURN_PARAM]);

interface FieldProps {
  name: string;
  label: MessageKey;
  type?: string;
  autoComplete?: string;
  values: Values;
  errors: FieldErrors;
  lang: Lang;
}

export function Field({
  name,
  label,
  type = 'text',
  autoComplete,
  values,
  errors,
  lang,
}: FieldProps) {
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

export function Form({
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

/** What was typed, to show again: every string but the token and the passwords. */
export function strings(body: Record<string, unknown>): Values {
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
export function parsed<S extends z.ZodType>(
  schema: S,
  body: Record<string, unknown>,
): { data: z.infer<S> } | { errors: FieldErrors } {
  const result = schema.safeParse(body);
  return result.success ? { data: result.data } : { errors: fieldErrorsOf(result.error) };
}

/** A refused use case's field errors (401 login, 409 taken, 400 token, 429). */
export function errorsOf(error: unknown): FieldErrors | null {
  if (!(error instanceof AppError)) return null;
  const fields = error.extra?.errors as FieldErrors | undefined;
  if (fields) return fields;
  if (error.status === 429) return { _: 'account.error.tooManyAttempts' };
  return null;
}

/** The status of a refused use case's answer: its own, 400 for anything else. */
const statusOf = (error: unknown) => (error instanceof AppError ? error.status : 400);

/** What a form shows again after a post: what was typed, the errors, the answer's status. */
export interface Shown {
  values?: Values;
  errors?: FieldErrors;
  status?: number;
}

/** One form of the account pages as a POST route (`accountFormRoute`). */
export interface AccountForm<S extends z.ZodType, K extends object> {
  path: string;
  rateLimit: { max: number; timeWindow: number };
  schema: S;
  /** What the form keeps from the post besides what was typed (`paluu`, the link's token). */
  kept: (request: FastifyRequest) => K;
  /** The page with the form. */
  show: (request: FastifyRequest, reply: FastifyReply, shown: Shown & K) => Promise<FastifyReply>;
  /** Does what the form asks and answers; a refusal is thrown (`errorsOf`). */
  use: (
    request: FastifyRequest,
    reply: FastifyReply,
    data: z.infer<S>,
    kept: K,
  ) => Promise<FastifyReply>;
  /**
   * The errors a malformed post (`invalid`) or a refusal shows; by default the fields' own. The
   * link pages show one error of the form's own: the token has no field.
   */
  shownErrors?: (errors: FieldErrors, cause: 'invalid' | 'refused') => FieldErrors;
}

/**
 * A form post of the account pages: a post the form-post guard refuses (403), a malformed one and
 * one the use case refuses (with its status) each show the form again with what was typed; a
 * success is the use case's answer.
 */
export function accountFormRoute<S extends z.ZodType, K extends object>(
  fastify: FastifyInstance,
  form: AccountForm<S, K>,
) {
  const shownErrors = form.shownErrors ?? ((errors) => errors);
  fastify.post(
    form.path,
    {
      config: {
        rateLimit: form.rateLimit,
        formPost: {
          refused: (request, reply) =>
            form.show(request, reply, { ...form.kept(request), errors: FORBIDDEN, status: 403 }),
        },
      },
    },
    async (request, reply) => {
      const body = postedFields(request);
      const kept = form.kept(request);
      const values = strings(body);
      const input = parsed(form.schema, body);
      if ('errors' in input) {
        return form.show(request, reply, {
          ...kept,
          values,
          errors: shownErrors(input.errors, 'invalid'),
        });
      }
      try {
        return await form.use(request, reply, input.data, kept);
      } catch (error) {
        const errors = errorsOf(error);
        if (!errors) throw error;
        return form.show(request, reply, {
          ...kept,
          values,
          errors: shownErrors(errors, 'refused'),
          status: statusOf(error),
        });
      }
    },
  );
}
