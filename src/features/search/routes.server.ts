import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { jsonAnswer, problemAnswers } from '../../server/openapi.ts';
import { clientLimit } from '../../server/rate-limit.ts';
import { zodValidatorCompiler } from '../../server/validate.ts';
import {
  contentGroupsOf,
  customFacets,
  productSelectList,
  recipeSearchFacets,
  SHOP_SEARCH_PATH,
  searchEndpointPaths,
  searchEndpointResult,
  shopSearchResult,
} from './endpoints.server.ts';
import {
  contentGroupOptionSchema,
  facetCategorySchema,
  foldBracketParams,
  languageQuerySchema,
  productListItemSchema,
  recipeTagsQuerySchema,
  searchQuerySchema,
  searchResultSchema,
} from './schemas.ts';
import { shopSearchResultSchema } from './shop-search.ts';

const summaries: Record<(typeof searchEndpointPaths)[number], string> = {
  '/api/search/suggestions/': 'Quick suggestions of the header search (from three characters)',
  '/api/search/content/': 'The site search',
  '/api/search/newsroom': 'The newsroom search',
  '/api/search/products': 'The product search',
  '/api/search/lihakauppa-products': 'The shop’s product search',
  '/api/search/recipes': 'The recipe search',
};

/** `/api/search/*` and `/api/facets/*`: site search over the search documents. */
export async function searchRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Public answers: no session, and no cookies on them.
  const config = { session: false };
  // Every route of this plugin (it is encapsulated): one budget per client for all of them
  // (SEARCH_RATE_LIMIT a minute; typing in the quick search asks at most about twice a second).
  const limit = clientLimit(app, {
    name: 'search',
    max: app.config.searchRateLimit,
    timeWindow: 60_000,
  });
  app.addHook('onRequest', async (request) => limit(request));

  for (const path of searchEndpointPaths) {
    if (path === SHOP_SEARCH_PATH) continue;
    app.get(
      path,
      {
        config,
        // Bracket notation (`authors[]=…`, `authors[0]=…`) is folded in before parsing.
        validatorCompiler: zodValidatorCompiler({ prepare: foldBracketParams }),
        schema: {
          tags: ['search'],
          summary: summaries[path],
          querystring: searchQuerySchema,
          response: { 200: jsonAnswer(searchResultSchema, 'The hits'), ...problemAnswers(400) },
        },
      },
      async (request, reply) => {
        cacheBriefly(reply);
        return searchEndpointResult(app.db, path, request.site, request.query);
      },
    );
  }

  // The shop's product search: the same request and result, each shop product's hit with its card.
  app.get(
    SHOP_SEARCH_PATH,
    {
      config,
      validatorCompiler: zodValidatorCompiler({ prepare: foldBracketParams }),
      schema: {
        tags: ['search'],
        summary: summaries[SHOP_SEARCH_PATH],
        querystring: searchQuerySchema,
        response: {
          200: jsonAnswer(shopSearchResultSchema, 'The hits, each shop product with its card data'),
          ...problemAnswers(400),
        },
      },
    },
    async (request, reply) => {
      cacheBriefly(reply);
      return shopSearchResult(app.db, request.site, request.query);
    },
  );

  app.get(
    '/api/search/all-products',
    {
      config,
      schema: {
        tags: ['search'],
        summary: 'Every product of the site, for the forms’ product select',
        querystring: languageQuerySchema,
        response: {
          200: jsonAnswer(z.array(productListItemSchema), 'The products by name'),
          ...problemAnswers(400),
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return productSelectList(app.db, request.site, request.query.language, request.locale.lang);
    },
  );

  app.get(
    '/api/facets/groups',
    {
      config,
      schema: {
        tags: ['search'],
        summary: 'The content-group options of the site search',
        querystring: languageQuerySchema,
        response: {
          200: jsonAnswer(z.array(contentGroupOptionSchema), 'The options'),
          ...problemAnswers(400),
        },
      },
    },
    async (request, reply) => {
      cacheBriefly(reply);
      return contentGroupsOf(app.db, request.site, request.query.language);
    },
  );

  app.get(
    '/api/facets/custom',
    {
      config,
      schema: {
        tags: ['search'],
        summary: 'The facet definitions of the site',
        querystring: languageQuerySchema,
        response: {
          200: jsonAnswer(z.array(facetCategorySchema), 'The facet categories'),
          ...problemAnswers(400),
        },
      },
    },
    async (request, reply) => {
      cacheBriefly(reply);
      return customFacets(app.db, request.site, request.query.language);
    },
  );

  app.get(
    '/api/facets/recipetags',
    {
      config,
      schema: {
        tags: ['search'],
        summary: 'The facet definitions of a recipe search',
        querystring: recipeTagsQuerySchema,
        response: {
          200: jsonAnswer(z.array(facetCategorySchema), 'The recipe facet categories'),
          ...problemAnswers(400, 404),
        },
      },
    },
    async (request, reply) => {
      const facets = await recipeSearchFacets(
        app.db,
        request.site,
        request.query.recipeSearchBlockId,
      );
      cacheBriefly(reply);
      return facets;
    },
  );
}

/** Answers are public and change only when content does. */
function cacheBriefly(reply: FastifyReply) {
  reply.header('cache-control', 'public, max-age=60');
}
