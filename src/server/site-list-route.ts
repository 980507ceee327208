import { z } from 'zod';
import type { Database } from '../db/client.ts';
import type { Lang } from '../sites/types.ts';
import { jsonAnswer, problemAnswers } from './openapi.ts';
import type { ZodApp } from './types.ts';

/** `?language=` of the APIs the widgets call: the page's language, `se` for Swedish too. */
export const languageQuery = z.object({
  language: z.enum(['fi', 'sv', 'se', 'en']).optional(),
});

/** The language `?language=` names (`se` is Swedish); `fallback` when it names none. */
export function languageOf(language: string | undefined, fallback: Lang): Lang {
  if (language === 'se') return 'sv';
  return (language as Lang | undefined) ?? fallback;
}

/**
 * `GET path`: one of the site's lists in the language `?language=` names, else the request's
 * (the school materials, the news-release categories). The same for every visitor: no session,
 * and shared caches may keep it five minutes.
 */
export function siteListRoute<T extends z.ZodType>(
  app: ZodApp,
  path: string,
  doc: { tags: string[]; summary: string; item: T; answer: string },
  load: (db: Database, siteId: string, lang: Lang) => Promise<z.output<T>[]>,
): void {
  app.get(
    path,
    {
      config: { session: false },
      schema: {
        tags: doc.tags,
        summary: doc.summary,
        querystring: languageQuery,
        response: {
          200: jsonAnswer(z.array(doc.item), doc.answer),
          ...problemAnswers(400),
        },
      },
    },
    async (request, reply) => {
      const lang = languageOf(request.query.language, request.locale.lang);
      const list = await load(app.db, request.site.id, lang);
      reply.header('cache-control', 'public, max-age=300');
      return list;
    },
  );
}
