import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { siteHomeUrl } from '../../../render/render-page.tsx';
import { NotFound, TooManyRequests } from '../../../server/errors.ts';
import {
  jsonAnswer,
  type ProblemStatus,
  problemAnswers,
  XSRF_SECURITY,
} from '../../../server/openapi.ts';
import { perMinute } from '../../../server/rate-limit.ts';
import { isShopSite, SHOP_SITE_ID } from '../../../sites/shop.ts';
import {
  type AccountContext,
  type AccountMailLinks,
  changePassword,
  confirmEmail,
  confirmRegistration,
  customerAnswer,
  logIn,
  logOut,
  NotLoggedIn,
  register,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  saveAddress,
  sessionCustomerId,
  type VerificationMail,
} from './accounts.server.ts';
import {
  ACCOUNT_API,
  addressFormSchema,
  addressSchema,
  CUSTOMER_API,
  customerSchema,
  loginSchema,
  okSchema,
  passwordChangeSchema,
  registerConfirmSchema,
  registerSchema,
  resetRequestSchema,
  resetSchema,
  verifyEmailSchema,
} from './schemas.ts';

/** The pages the account mails link to (`pages.server.tsx`). */
export const RESET_PAGE_PATH = '/salasana/uusi';
export const RESET_REQUEST_PAGE_PATH = '/salasana';
export const LOGIN_PAGE_PATH = '/kirjaudu';
export const CONFIRM_PAGE_PATH = '/rekisteroidy/vahvista';
/** The page a verification link opens (`pages.server.tsx`, decision 082). */
export const VERIFY_PAGE_PATH = '/sahkoposti/vahvista';

/** Small JSON bodies only: a 20 MB body is refused before it is read (413). */
const BODY_LIMIT = 16 * 1024;

/** Per client address and minute. */
export const LIMITS = {
  login: perMinute(20),
  register: perMinute(10),
  reset: perMinute(10),
  customer: perMinute(120),
  /** Per account (the address in the body), from any client: 10 logins in 15 minutes. */
  loginPerAccount: { max: 10, timeWindow: 15 * 60_000 },
  /** Reset mails per address asked for: 3 in 15 minutes, whether it has an account or not. */
  resetPerAccount: { max: 3, timeWindow: 15 * 60_000 },
  /** Registration mails per address: the same, so nobody's mailbox is flooded through the form. */
  registerPerAccount: { max: 3, timeWindow: 15 * 60_000 },
};

/** A route of the shop's own: 404 on every other site. */
export function onShop(request: FastifyRequest): void {
  if (!isShopSite(request.site)) throw new NotFound();
}

export function accountContext(request: FastifyRequest): AccountContext {
  return {
    db: request.server.db,
    session: request.session,
    siteId: SHOP_SITE_ID,
    lang: request.locale.lang,
  };
}

function emailKey(request: FastifyRequest): string {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : '';
}

/**
 * A per-account budget (the email address in the body), shared by the API and the pages; the
 * per-address budget is each route's own. Over it: 429 with Retry-After.
 */
export function accountLimits(app: FastifyInstance) {
  const make = (
    prefix: string,
    limit: { max: number; timeWindow: number },
    key: (request: FastifyRequest) => string = emailKey,
  ) => {
    const check = app.createRateLimit({
      ...limit,
      keyGenerator: (request) => `${prefix}:${key(request)}`,
    });
    return async (request: FastifyRequest) => {
      const result = await check(request);
      if (!result.isAllowed && result.isExceeded) {
        throw new TooManyRequests(
          Math.max(1, result.ttlInSeconds),
          'Too many attempts for this account. Try again shortly.',
        );
      }
    };
  };
  return {
    login: make('login', LIMITS.loginPerAccount),
    reset: make('reset', LIMITS.resetPerAccount),
    register: make('register', LIMITS.registerPerAccount),
    /** Tries of the current password: per session, which only a login of the account makes. */
    passwordChange: make('password', LIMITS.loginPerAccount, (request) => request.session.id),
  };
}

export function resetPageUrl(request: FastifyRequest): string {
  return new URL(RESET_PAGE_PATH, siteHomeUrl(request, SHOP_SITE_ID)).href;
}

/** What `register` needs of the request: the mail's language, its links and the outbox key. */
export function registrationMail(request: FastifyRequest) {
  const home = siteHomeUrl(request, SHOP_SITE_ID);
  const links: AccountMailLinks = {
    confirmPage: new URL(CONFIRM_PAGE_PATH, home).href,
    loginPage: new URL(LOGIN_PAGE_PATH, home).href,
    resetRequestPage: new URL(RESET_REQUEST_PAGE_PATH, home).href,
  };
  return { lang: request.locale.lang, links, mailKey: request.server.config.forms.encryptionKey };
}

/** How a request mails verification links: the page on the shop's canonical host, the key. */
export function verificationMail(request: FastifyRequest): VerificationMail {
  return {
    pageUrl: new URL(VERIFY_PAGE_PATH, siteHomeUrl(request, SHOP_SITE_ID)).href,
    mailKey: request.server.config.forms.encryptionKey,
  };
}

/** What an account call answers with 200, and which problems it documents (500 always). */
interface CallDoc<B extends z.ZodType | undefined> {
  summary: string;
  description?: string;
  rateLimit: { max: number; timeWindow: number };
  body?: B;
  answer: [z.ZodType, string];
  problems: ProblemStatus[];
}

/**
 * The route options of an account call: the JSON body's limit (when it takes one), the
 * anti-forgery header, the OpenAPI entry under `shop`.
 */
function accountCall<B extends z.ZodType | undefined = undefined>(doc: CallDoc<B>) {
  const schema = {
    tags: ['shop'],
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    security: XSRF_SECURITY,
    body: doc.body as B,
    response: { 200: jsonAnswer(...doc.answer), ...problemAnswers(...doc.problems) },
  };
  // A call without a body has no body key at all: Fastify warns of an undefined one.
  if (!doc.body) delete schema.body;
  return {
    ...(doc.body ? { bodyLimit: BODY_LIMIT } : {}),
    config: { rateLimit: doc.rateLimit },
    schema,
  };
}

/** The logged-in customer of the request; 401 for a visitor. */
async function loggedIn(request: FastifyRequest): Promise<string> {
  const customerId = await sessionCustomerId(request.session);
  if (!customerId) throw new NotLoggedIn();
  return customerId;
}

const OK = { ok: true as const };
const okAnswer = (text: string): [z.ZodType, string] => [okSchema, text];

/**
 * The customer API (shop spec §7 `/api/lk/customer`) and the account calls (decision 025) on the
 * shop site: register, log in, log out, ask for a reset link, reset. Every POST needs the
 * anti-forgery header; answers are `no-store`.
 */
export async function customerRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  // After the body is validated, as each handler did: a 400 stays a 400 on every site.
  app.addHook('preHandler', async (request) => onShop(request));
  const perAccount = accountLimits(fastify);
  customerDataRoutes(app);
  signInRoutes(app, perAccount);
  passwordRoutes(app, perAccount);
  verificationRoutes(app);
}

type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

type PerAccount = ReturnType<typeof accountLimits>;

/** The customer of the session, and the address form of the address modal. */
function customerDataRoutes(app: App) {
  app.get(
    CUSTOMER_API,
    {
      config: { rateLimit: LIMITS.customer },
      schema: {
        tags: ['shop'],
        summary: 'The customer of the session (empty fields and loggedIn false for a visitor)',
        response: { 200: jsonAnswer(customerSchema, 'The customer'), ...problemAnswers(404, 429) },
      },
    },
    async (request) => customerAnswer(app.db, await sessionCustomerId(request.session)),
  );

  app.post(
    CUSTOMER_API,
    accountCall({
      summary: "Saves the customer's delivery address, phone and private-customer flag",
      description:
        'The address form of the address modal (spec §3, §5). Every field is required; the phone number in Finnish format; isPrivateCustomer must be true. Answers the delivery address. 401 for a visitor.',
      rateLimit: LIMITS.customer,
      body: addressFormSchema,
      answer: [addressSchema, 'The delivery address saved'],
      problems: [400, 401, 403, 404, 413, 429],
    }),
    async (request) => saveAddress(app.db, await loggedIn(request), request.body),
  );
}

/** Registering (by a mailed link), logging in and out. */
function signInRoutes(app: App, perAccount: PerAccount) {
  app.post(
    `${ACCOUNT_API}/register`,
    accountCall({
      summary: 'Asks for a customer account: the address gets a mail',
      description:
        'Answers the same whether or not the address has an account (decision 075). A new address gets a link that creates the account (`/register/confirm`); the owner of a taken one gets a note instead. Nobody is logged in by it. The password must have 12–128 characters and not be a common one (400 naming `password`). Limited per client address and to 3 mails per address in 15 minutes.',
      rateLimit: LIMITS.register,
      body: registerSchema,
      answer: okAnswer('Asked (the address gets a mail)'),
      problems: [400, 403, 404, 413, 429],
    }),
    async (request) => {
      await perAccount.register(request);
      await register(app.db, { ...request.body, returnPath: null }, registrationMail(request));
      return OK;
    },
  );

  app.post(
    `${ACCOUNT_API}/register/confirm`,
    accountCall({
      summary: 'Creates the account of a registration from its mailed link and logs it in',
      description:
        'The session is regenerated and the guest cart kept. A link works once and for 24 hours; an unknown, used or expired one is 400 naming `token`.',
      rateLimit: LIMITS.register,
      body: registerConfirmSchema,
      answer: [customerSchema, 'The new customer, logged in'],
      problems: [400, 403, 404, 413, 429],
    }),
    async (request) => {
      const { customerId } = await confirmRegistration(accountContext(request), request.body.token);
      return customerAnswer(app.db, customerId);
    },
  );

  app.post(
    `${ACCOUNT_API}/login`,
    accountCall({
      summary: 'Logs in with email address and password',
      description:
        "A new session token (the old one stops working); the guest cart merges into the account's saved cart. 401 for a wrong address or password alike. Limited per client address and per account.",
      rateLimit: LIMITS.login,
      body: loginSchema,
      answer: [customerSchema, 'The customer, logged in'],
      problems: [400, 401, 403, 404, 413, 429],
    }),
    async (request) => {
      await perAccount.login(request);
      const id = await logIn(accountContext(request), request.body);
      return customerAnswer(app.db, id);
    },
  );

  app.post(
    `${ACCOUNT_API}/logout`,
    accountCall({
      summary: 'Logs out (the saved cart stays with the account)',
      rateLimit: LIMITS.customer,
      answer: okAnswer('Logged out'),
      problems: [403, 404, 429],
    }),
    async (request) => {
      await logOut(request.session);
      return OK;
    },
  );
}

/**
 * A call that uses the token of a mailed link (a password reset, an address verification): its
 * body carries the token, it answers ok, and it is limited like the mails that send the links.
 */
function linkTokenCall<B extends z.ZodType>(
  app: App,
  url: string,
  doc: { summary: string; description: string; body: B; answer: string },
  use: (body: z.output<B>) => Promise<unknown>,
) {
  app.post(
    url,
    accountCall({
      ...doc,
      rateLimit: LIMITS.reset,
      answer: okAnswer(doc.answer),
      problems: [400, 403, 404, 413, 429],
    }),
    async (request) => {
      // Fastify has checked the body against `B`; its provider's type of it stays unresolved here.
      await use(request.body as z.output<B>);
      return OK;
    },
  );
}

/** The password: changed by the customer, or reset by a mailed link. */
function passwordRoutes(app: App, perAccount: PerAccount) {
  app.post(
    `${ACCOUNT_API}/password`,
    accountCall({
      summary: "Changes the logged-in customer's password",
      description:
        'Needs the current password (400 naming `currentPassword`); the new one has 12–128 characters and is not a common one (400 naming `newPassword`). Every other session of the account ends. 401 for a visitor. Limited to 10 tries in 15 minutes per session.',
      rateLimit: LIMITS.login,
      body: passwordChangeSchema,
      answer: okAnswer('The password is changed'),
      problems: [400, 401, 403, 404, 413, 429],
    }),
    async (request) => {
      const customerId = await loggedIn(request);
      await perAccount.passwordChange(request);
      await changePassword(accountContext(request), customerId, request.body);
      return OK;
    },
  );

  app.post(
    `${ACCOUNT_API}/password-reset`,
    accountCall({
      summary: 'Sends a password reset link to the address if it has an account',
      description:
        'Answers the same whether or not the address has an account. The link works once, for one hour.',
      rateLimit: LIMITS.reset,
      body: resetRequestSchema,
      answer: okAnswer('Asked (sent if the address has an account)'),
      problems: [400, 403, 404, 413, 429],
    }),
    async (request) => {
      await perAccount.reset(request);
      await requestPasswordReset(app.db, {
        email: request.body.email,
        lang: request.locale.lang,
        resetPageUrl: resetPageUrl(request),
        mailKey: app.config.forms.encryptionKey,
      });
      return OK;
    },
  );

  linkTokenCall(
    app,
    `${ACCOUNT_API}/password-reset/confirm`,
    {
      summary: 'Sets a new password with the token of a reset link',
      description:
        'A token works once and expires after an hour; unknown, used or expired tokens are 400 naming `token`. Every session of the account ends.',
      body: resetSchema,
      answer: 'The password is changed',
    },
    (body) => resetPassword(app.db, body),
  );
}

/** The address's verification: a new link mailed, and a link's token used (decision 082). */
function verificationRoutes(app: App) {
  app.post(
    `${ACCOUNT_API}/email-verification`,
    accountCall({
      summary: "Mails the logged-in customer a new link to verify the account's address",
      description:
        'Nothing is sent when the address is verified already, or after 3 links in 15 minutes; the answer is the same. Per-customer coupons and reviews need a verified address (decision 082); accounts made from a registration link are verified already (decision 083). 401 for a visitor.',
      rateLimit: LIMITS.reset,
      answer: okAnswer('Asked (sent unless verified or over the limit)'),
      problems: [401, 403, 404, 429],
    }),
    async (request) => {
      await resendVerification(app.db, {
        customerId: await loggedIn(request),
        lang: request.locale.lang,
        mail: verificationMail(request),
      });
      return OK;
    },
  );

  linkTokenCall(
    app,
    `${ACCOUNT_API}/email-verification/confirm`,
    {
      summary: "Verifies an account's address with the token of a mailed link",
      description:
        'A token works once and expires after 7 days, and only while the account still has the address it was sent to; otherwise 400 naming `token`.',
      body: verifyEmailSchema,
      answer: 'The address is verified',
    },
    (body) => confirmEmail(app.db, body.token),
  );
}
