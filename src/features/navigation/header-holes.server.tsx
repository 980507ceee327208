import type { FastifyRequest } from 'fastify';
import { renderToString } from 'react-dom/server';
import { serverT } from '../../i18n/catalogues.ts';
import { I18nProvider } from '../../i18n/react.tsx';
import { VISITOR_HOLE, visitorScriptHtml } from '../../render/holes.ts';
import type { PageVisitor } from '../../render/page-cache.ts';
import { HeaderAccountLink, HeaderCartLink } from './header-cart-link.tsx';
import { GUEST_VISITOR, HEADER_HOLES, type HeaderVisitor } from './header-props.ts';
import { accountLink, cartSummary, loadHeaderVisitor } from './layout-data.server.ts';

/** Whether the visitor sees the header as a guest does: a shared page needs no filling. */
export function isGuest(visitor: HeaderVisitor): boolean {
  return (
    visitor.lineItemCount === GUEST_VISITOR.lineItemCount &&
    visitor.loggedIn === GUEST_VISITOR.loggedIn
  );
}

/**
 * A short key of what the visitor sees: pages filled for two visitors with the same key are the
 * same bytes (the key holds nothing else of theirs).
 */
export function visitorKey(visitor: HeaderVisitor): string {
  return `${visitor.lineItemCount}:${visitor.loggedIn ? 1 : 0}`;
}

/**
 * The visitor's own fragments of a shared page (decision 157): the header's cart and account
 * links as the island renders them with the visitor's values, and the page's visitor data. The
 * links are rendered by the same components as in the island, so the filled page is what React
 * hydrates without a mismatch.
 */
export function headerHoleFills(
  request: FastifyRequest,
  visitor: HeaderVisitor,
): Record<string, string> {
  const cart = cartSummary(request, request.site.header.variant === 'shop');
  const account = accountLink(request);
  const lang = request.locale.lang;
  const render = (element: React.ReactNode) =>
    renderToString(
      <I18nProvider lang={lang} t={serverT(lang)}>
        {element}
      </I18nProvider>,
    );
  return {
    [VISITOR_HOLE]: visitorScriptHtml(visitor),
    ...(cart
      ? { [HEADER_HOLES.cart]: render(<HeaderCartLink cart={cart} visitor={visitor} />) }
      : {}),
    ...(account
      ? {
          [HEADER_HOLES.account]: render(<HeaderAccountLink account={account} visitor={visitor} />),
        }
      : {}),
  };
}

/**
 * The request's visitor as a shared page sees them: a guest (the page as kept), or a variant
 * named by what the header shows of them, with their fragments.
 */
export async function loadPageVisitor(request: FastifyRequest): Promise<PageVisitor> {
  const visitor = await loadHeaderVisitor(request);
  if (isGuest(visitor)) return { variant: '', fills: () => ({}) };
  return { variant: visitorKey(visitor), fills: () => headerHoleFills(request, visitor) };
}
