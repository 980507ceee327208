import type { FastifyInstance } from 'fastify';
import type { PageLayout } from '../../../render/render-page.tsx';
import { acceptFormPosts } from '../../../server/form-posts.ts';
import { accountPageOfCustomer } from './account-page.server.tsx';
import { accountPageKit } from './account-page-parts.server.tsx';
import { linkPages } from './link-pages.server.tsx';
import { onShop } from './routes.server.ts';
import { signInPages } from './sign-in-pages.server.tsx';

export { ACCOUNT_PAGES } from './account-page-parts.server.tsx';

/**
 * The account pages of the shop (decision 025): plain HTML forms that work without script, each
 * post checked by the form-post guard (decision 125). Shop only.
 */
export function accountPageRoutes(layout: PageLayout) {
  return async (fastify: FastifyInstance) => {
    acceptFormPosts(fastify, 16 * 1024);
    fastify.addHook('onRequest', async (request) => onShop(request));
    const kit = accountPageKit(fastify, layout);
    signInPages(fastify, kit);
    linkPages(fastify, kit);
    accountPageOfCustomer(fastify, kit);
  };
}
