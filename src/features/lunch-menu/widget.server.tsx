import type { FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { Island } from '../../render/island.server.tsx';
import { NotFound } from '../../server/errors.ts';
import { menuOf, offersLunchMenu } from './menu.server.ts';
import { menuQuerySchema } from './schemas.ts';

/**
 * The lunch menu on the page whose `widget` setting is `lunch-menu` (on a food-service site): the
 * menu the page's `menuId` names (a 404 page for an id no menu has), else the default one,
 * rendered on the server and hydrated when the browser is idle. A saved menu never changes, so
 * its page may be shared by every visitor; the default one follows the week, so it is not kept.
 */
export async function loadLunchMenuWidget(
  request: FastifyRequest,
  page: { settings: Record<string, unknown> },
): Promise<{ element: ReactNode; inline: boolean; shareable: boolean } | undefined> {
  if (page.settings.widget !== 'lunch-menu' || !offersLunchMenu(request.site)) return undefined;
  const query = menuQuerySchema.safeParse(request.query ?? {});
  if (!query.success) throw new NotFound('No lunch menu has this id.');
  const { menuId } = query.data;
  const { lang } = request.locale;
  const weeks = await menuOf({ db: request.server.db, site: request.site, lang }, menuId);
  return {
    element: (
      <Island
        name="lunch-menu"
        lang={lang}
        hydrate="idle"
        props={{ weeks, menuId: menuId ?? null }}
      />
    ),
    inline: true,
    shareable: menuId !== undefined,
  };
}
