import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { adminT } from '../i18n/admin.ts';

/**
 * `/admin` and everything under it: the back office's single-page app (decision 133). The page
 * is an empty shell that loads the admin bundle only (never the public client), under a
 * Content-Security-Policy stricter than the public pages': nothing inline, no other origin, no
 * framing, no `<base>`; images from this origin and `data:` (the enrolment's QR code).
 */
export const ADMIN_PATH = '/admin';

export function adminCsp(dev: boolean): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    // The Vite dev server injects CSS modules as <style> elements; the build links a file.
    dev ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    dev ? "connect-src 'self' ws: wss:" : "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
    "manifest-src 'none'",
  ].join('; ');
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function adminShellRoutes(app: FastifyInstance) {
  const handler = async (_request: FastifyRequest, reply: FastifyReply) => {
    const assets = app.assets.admin?.();
    if (!assets) {
      reply.code(503).type('text/plain; charset=utf-8');
      return 'The back office is not built: run npm run build.';
    }
    const t = adminT('fi');
    const html = [
      '<!doctype html>',
      '<html lang="fi">',
      '<head>',
      '<meta charset="utf-8">',
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      '<meta name="robots" content="noindex, nofollow">',
      `<title>${escapeHtml(t('admin.title'))}</title>`,
      ...assets.styles.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
      // React Aria adds a <style> element of this id for its pressable elements, which the CSP
      // refuses; its rule is in the admin stylesheet, and an element of the id tells it so.
      '<template id="react-aria-pressable-style"></template>',
      ...assets.scripts.map((src) => `<script type="module" src="${escapeHtml(src)}"></script>`),
      '</head>',
      '<body>',
      `<div id="admin-root"><p>${escapeHtml(t('admin.loading'))}</p></div>`,
      '</body>',
      '</html>',
    ].join('\n');
    reply
      .header('content-security-policy', adminCsp(app.assets.dev))
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex, nofollow')
      .header('referrer-policy', 'no-referrer')
      .type('text/html; charset=utf-8');
    return html;
  };
  app.get(ADMIN_PATH, handler);
  app.get(`${ADMIN_PATH}/*`, handler);
}
