import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiRoute } from '../../server/api-route.ts';
import { Invalid, NotFound } from '../../server/errors.ts';
import { jsonAnswer } from '../../server/openapi.ts';
import { perMinute } from '../../server/rate-limit.ts';
import { zodValidatorCompiler } from '../../server/validate.ts';
import { type MenuContext, menuOf, offersLunchMenu, saveMenu, siteRecipes } from './menu.server.ts';
import {
  menuPostSchema,
  menuQuerySchema,
  menuRecipesSchema,
  menuSavedSchema,
  menuWeeksSchema,
} from './schemas.ts';
import { MENU_API, MENU_RECIPES_API } from './values.ts';

/** Per client address and minute (decision 042). */
export const MENU_LIMITS_PER_MINUTE = {
  read: perMinute(120),
  save: perMinute(10),
};

/** Ten weeks of four cards a day at their longest fit well under this (decision 042). */
const BODY_LIMIT = 256 * 1024;

/** The request's site and language, on a food-service site only (404 elsewhere). */
function contextOf(request: FastifyRequest): MenuContext {
  if (!offersLunchMenu(request.site)) throw new NotFound();
  return { db: request.server.db, site: request.site, lang: request.locale.lang };
}

/**
 * The weekly lunch menu's API (spec §7): `GET /api/fs/menu` answers the menu the page's query
 * string picks (`menuId`, else the default one), `GET /api/fs/menu/recipes` the site's recipes
 * by name, `POST /api/fs/menu` saves a new menu and answers its id.
 */
export async function menuRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  apiRoute(app, 'GET', MENU_API, 'lunch-menu', {
    rateLimit: MENU_LIMITS_PER_MINUTE.read,
    summary: 'The weeks of a lunch menu',
    description:
      'Takes the page’s query string: `menuId` picks a saved menu (404 when unknown); without it, a suggestion for the current week from the site’s recipes. Other parameters are ignored.',
    querystring: menuQuerySchema,
    answer: jsonAnswer(menuWeeksSchema, 'The weeks of the menu'),
    problems: [400, 404, 429],
    handler: async (request, reply) => {
      const weeks = await menuOf(contextOf(request), request.query.menuId);
      // A saved menu never changes; the default one follows the recipes and the week.
      if (request.query.menuId) reply.header('cache-control', 'public, max-age=3600');
      return weeks;
    },
  });

  apiRoute(app, 'GET', MENU_RECIPES_API, 'lunch-menu', {
    rateLimit: MENU_LIMITS_PER_MINUTE.read,
    summary: 'The site’s recipes for the lunch menu, by name',
    answer: jsonAnswer(menuRecipesSchema, 'Each recipe’s link and image by its name'),
    problems: [404, 429],
    handler: async (request) => siteRecipes(contextOf(request)),
  });

  apiRoute(app, 'POST', MENU_API, 'lunch-menu', {
    bodyLimit: BODY_LIMIT,
    rateLimit: MENU_LIMITS_PER_MINUTE.save,
    // The body is the list of weeks itself: its fields are named from `weeks` (`weeks.0.week`).
    validatorCompiler: zodValidatorCompiler({
      invalid: (errors) =>
        new Invalid(
          Object.fromEntries(
            Object.entries(errors).map(([field, key]) => [
              field === '_' ? 'weeks' : `weeks.${field}`,
              key,
            ]),
          ),
        ),
    }),
    summary: 'Saves a lunch menu as a new one and answers its id',
    description:
      'Saved menus never change: every save makes a new menu with a new unguessable id. 1–10 weeks, each an ISO week from the current one to the week of 31 December (Helsinki time), in order; Monday–Friday with at most 4 cards a day, each linking to one of the site’s own recipes (its header and image are taken from the recipe); heading at most 80 and text at most 600 characters. A refused menu stores nothing.',
    body: menuPostSchema(),
    answer: jsonAnswer(menuSavedSchema, 'The new menu'),
    problems: [400, 403, 404, 413, 429],
    handler: async (request, reply) => {
      const context = contextOf(request);
      reply.header('cache-control', 'no-store');
      return { menuId: await saveMenu(context, request.body) };
    },
  });
}
