import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { serverT } from '../../i18n/catalogues.ts';
import { type PageLayout, renderPage } from '../../render/render-page.tsx';
import type { Lang } from '../../sites/types.ts';

/*
 * The shop's plain HTML pages that work without JavaScript and that no search engine should
 * list: the cart hand-over (cart-sync) and the test bank (payment).
 */

export type RefusedMessage = 'expired' | 'forbidden';

/** The key prefix of a plain page's texts. */
type PlainPageTexts = 'shop.handover' | 'shop.testBank';

/** A plain page's frame: its texts, and its section's class and title's id. */
export interface PlainPageFrame {
  texts: PlainPageTexts;
  className: string | undefined;
  titleId: string;
}

/**
 * What such a page says when its link has expired or its form post is refused, with the way back
 * to the cart: the page's own title and texts (`<texts>.title`, `.expired`, `.forbidden`,
 * `.toCart`) in the page's own frame.
 */
export function PlainPageRefused(props: PlainPageFrame & { lang: Lang; message: RefusedMessage }) {
  const t = serverT(props.lang);
  return (
    <section className={props.className} aria-labelledby={props.titleId}>
      <h1 id={props.titleId}>{t(`${props.texts}.title`)}</h1>
      <p role="alert">{t(`${props.texts}.${props.message}`)}</p>
      <p>
        <a href="/ostoskori#tuotteet">{t(`${props.texts}.toCart`)}</a>
      </p>
    </section>
  );
}

/**
 * Such a page's own content in its frame: the title and lead (`<texts>.title`, `.intro`), what it
 * shows (`children`), and its form, which posts `fields` as hidden inputs with the button pressed
 * among `actions`.
 */
export function PlainPageForm(
  props: PlainPageFrame & {
    lang: Lang;
    action: string;
    fields: Record<string, string>;
    formClassName: string | undefined;
    children: ReactNode;
    actions: ReactNode;
  },
) {
  const t = serverT(props.lang);
  return (
    <section className={props.className} aria-labelledby={props.titleId}>
      <h1 id={props.titleId}>{t(`${props.texts}.title`)}</h1>
      <p>{t(`${props.texts}.intro`)}</p>
      {props.children}
      <form method="post" action={props.action} className={props.formClassName}>
        {Object.entries(props.fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {props.actions}
      </form>
    </section>
  );
}

/**
 * The two ways such a page answers, in the site's layout: `page` with any body, `refused` with
 * the refusal; both titled by the page's title (`<texts>.title`).
 */
export function plainPages(layout: PageLayout, frame: PlainPageFrame) {
  const page = async (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    body: ReactNode,
  ) =>
    renderPage(request, reply, {
      title: serverT(request.locale.lang)(`${frame.texts}.title`),
      status,
      head: <meta name="robots" content="noindex" />,
      body: await layout(request, body),
    });
  const refused = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    message: RefusedMessage,
  ) =>
    page(
      request,
      reply,
      status,
      <PlainPageRefused lang={request.locale.lang} message={message} {...frame} />,
    );
  return { page, refused };
}
