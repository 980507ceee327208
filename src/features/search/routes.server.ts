import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { jsonAnswer, type ProblemStatus, problemAnswers } from '../../server/openapi.ts';
import { clientLimit, perMinute } from '../../server/rate-limit.ts';
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

/** Public answers: no session, and no cookies on them. */
const config = { session: false };

/** The options of a public search GET: its OpenAPI entry under `search`, and no session. */
function searchGet<Q extends z.ZodType>(doc: {
  summary: string;
  query: Q;
  answer: [z.ZodType, string];
  problems?: ProblemStatus[];
}) {
  return {
    config,
    schema: {
      tags: ['search'],
      summary: doc.summary,
      querystring: doc.query,
      response: { 200: jsonAnswer(...doc.answer), ...problemAnswers(...(doc.problems ?? [400])) },
    },
  };
}

/** `/api/search/*` and `/api/facets/*`: site search over the search documents. */
export async function searchRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Every route of this plugin (it is encapsulated): one budget per client for all of them
  // (SEARCH_RATE_LIMIT a minute; typing in the quick search asks at most about twice a second).
  const limit = clientLimit(app, { name: 'search', ...perMinute(app.config.searchRateLimit) });
  app.addHook('onRequest', async (request) => limit(request));
  // Bracket notation (`authors[]=…`, `authors[0]=…`) is folded in before parsing.
  const foldBrackets = zodValidatorCompiler({ prepare: foldBracketParams });

  for (const path of searchEndpointPaths) {
    if (path === SHOP_SEARCH_PATH) continue;
    app.get(
      path,
      {
        ...searchGet({
          summary: summaries[path],
          query: searchQuerySchema,
          answer: [searchResultSchema, 'The hits'],
        }),
        validatorCompiler: foldBrackets,
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
      ...searchGet({
        summary: summaries[SHOP_SEARCH_PATH],
        query: searchQuerySchema,
        answer: [shopSearchResultSchema, 'The hits, each shop product with its card data'],
      }),
      validatorCompiler: foldBrackets,
    },
    async (request, reply) => {
      cacheBriefly(reply);
      return shopSearchResult(app.db, request.site, request.query);
    },
  );

  app.get(
    '/api/search/all-products',
    searchGet({
      summary: 'Every product of the site, for the forms’ product select',
      query: languageQuerySchema,
      answer: [z.array(productListItemSchema), 'The products by name'],
    }),
    async (request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return productSelectList(app.db, request.site, request.query.language, request.locale.lang);
    },
  );

  app.get(
    '/api/facets/groups',
    searchGet({
      summary: 'The content-group options of the site search',
      query: languageQuerySchema,
      answer: [z.array(contentGroupOptionSchema), 'The options'],
    }),
    async (request, reply) => {
      cacheBriefly(reply);
      return contentGroupsOf(app.db, request.site, request.query.language);
    },
  );

  app.get(
    '/api/facets/custom',
    searchGet({
      summary: 'The facet definitions of the site',
      query: languageQuerySchema,
      answer: [z.array(facetCategorySchema), 'The facet categories'],
    }),
    async (request, reply) => {
      cacheBriefly(reply);
      return customFacets(app.db, request.site, request.query.language);
    },
  );

  app.get(
    '/api/facets/recipetags',
    searchGet({
      summary: 'The facet definitions of a recipe search',
      query: recipeTagsQuerySchema,
      answer: [z.array(facetCategorySchema), 'The recipe facet categories'],
      problems: [400, 404],
    }),
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
