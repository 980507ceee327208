import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { NotFound } from '../../../server/errors.ts';
import { jsonAnswer, problemAnswers } from '../../../server/openapi.ts';
import { filteredCards } from './filtered-cards.server.ts';
import { filteredCardsParamsSchema, filteredCardsSchema } from './schemas.ts';

/** `GET /api/filtered-cards/{dropdownItemId}/{cardType}` (spec §7): a list of cards. */
export async function filteredCardsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/filtered-cards/:dropdownItemId/:cardType',
    {
      config: { session: false },
      schema: {
        tags: ['content'],
        summary: 'The cards of a card grid’s dropdown choice',
        params: filteredCardsParamsSchema,
        response: {
          200: jsonAnswer(filteredCardsSchema, 'The cards, at most 48'),
          ...problemAnswers(400, 404),
        },
      },
    },
    async (request, reply) => {
      const { dropdownItemId, cardType } = request.params;
      const cards = await filteredCards(app.db, request.site, dropdownItemId, cardType);
      if (!cards) throw new NotFound('The site has no dropdown item with that id.');
      // Public and changing only with the content, like the search answers.
      reply.header('cache-control', 'public, max-age=60');
      return cards;
    },
  );
}
