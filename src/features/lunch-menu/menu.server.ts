import { randomBytes } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { serverT } from '../../i18n/catalogues.ts';
import { imageUrl } from '../../images/presets.ts';
import type { FieldErrors } from '../../server/errors.ts';
import { Invalid, NotFound } from '../../server/errors.ts';
import { langPrefix } from '../../sites/resolve.ts';
import type { Lang, Site } from '../../sites/types.ts';
import { recipes } from '../content/index.server.ts';
import type { MenuInput } from './schemas.ts';
import { UNKNOWN_RECIPE } from './schemas.ts';
import { type LunchMenuWeek, lunchMenus } from './tables.ts';
import {
  type Background,
  helsinkiToday,
  isoWeekOf,
  type MenuCard,
  type MenuRecipes,
  type MenuWeek,
  WEEKDAYS,
} from './values.ts';

/** The sites of the food-service business that offer the lunch menu (spec §7: `/api/fs/…`). */
const FOOD_SERVICE_SITES = new Set(['ammattilaiset', 'foodservicese']);

export function offersLunchMenu(site: Site): boolean {
  return FOOD_SERVICE_SITES.has(site.id);
}

/** The picture preset of a menu card. */
const CARD_PRESET = 'card-wide';

export interface MenuContext {
  db: Database;
  site: Site;
  lang: Lang;
}

/**
 * The site's recipes of a language as menu cards, by name (spec §3 "Recipe list keyed by recipe
 * name"): two recipes of the same name get ` (2)`, ` (3)` after the later ones, so none is lost.
 */
export async function siteRecipes({ db, site, lang }: MenuContext): Promise<MenuRecipes> {
  const rows = await db
    .select({ path: recipes.path, title: recipes.title, imageId: recipes.imageId })
    .from(recipes)
    .where(and(eq(recipes.siteId, site.id), eq(recipes.lang, lang)))
    .orderBy(asc(recipes.title), asc(recipes.id));
  const prefix = langPrefix(site, lang);
  const byName: MenuRecipes = {};
  for (const row of rows) {
    let name = row.title;
    for (let n = 2; Object.hasOwn(byName, name); n++) name = `${row.title} (${n})`;
    byName[name] = {
      link: `${prefix}${row.path}`,
      image:
        row.imageId === null ? '' : imageUrl({ id: row.imageId, slug: row.title }, CARD_PRESET),
    };
  }
  return byName;
}

/** The site's recipes by link: the card a link stands for. */
function cardsByLink(list: MenuRecipes): Map<string, MenuCard> {
  return new Map(
    Object.entries(list).map(([header, { link, image }]) => [link, { header, link, image }]),
  );
}

/**
 * Saves a new menu and answers its id. Every card must link to one of the site's own recipes; its
 * header and picture are taken from the recipe, not from the post. A card that links elsewhere
 * refuses the whole menu, naming each such field (`weeks.0.monday.1.link`), and nothing is stored.
 */
export async function saveMenu(context: MenuContext, weeks: MenuInput): Promise<string> {
  const known = cardsByLink(await siteRecipes(context));
  const errors: FieldErrors = {};
  const stored: LunchMenuWeek[] = weeks.map((week, i) => ({
    year: week.year,
    week: week.week,
    heading: week.heading,
    text: week.text,
    background: week.background,
    ...Object.fromEntries(
      WEEKDAYS.map((day) => [
        day,
        week[day].map((card, j) => {
          const recipe = known.get(card.link);
          if (!recipe) errors[`weeks.${i}.${day}.${j}.link`] = UNKNOWN_RECIPE;
          return recipe ?? card;
        }),
      ]),
    ),
  })) as LunchMenuWeek[];
  if (Object.keys(errors).length > 0) throw new Invalid(errors);
  const id = randomBytes(16).toString('base64url');
  await context.db
    .insert(lunchMenus)
    .values({ id, siteId: context.site.id, lang: context.lang, weeks: stored });
  return id;
}

type Weekdays = (typeof WEEKDAYS)[number];

/** A saved menu of the site and language; 404 for an id it does not know. */
export async function loadMenu(context: MenuContext, id: string): Promise<MenuWeek[]> {
  const [row] = await context.db
    .select({ weeks: lunchMenus.weeks })
    .from(lunchMenus)
    .where(
      and(
        eq(lunchMenus.id, id),
        eq(lunchMenus.siteId, context.site.id),
        eq(lunchMenus.lang, context.lang),
      ),
    );
  if (!row) throw new NotFound('No lunch menu has this id.');
  return row.weeks as MenuWeek[];
}

/**
 * The menu shown without a `menuId`: the current week with two of the site's recipes a day,
 * taken in turn from the recipes by name, starting at a place the week number picks, so the
 * suggestion changes from week to week and is the same for every visitor in a week.
 */
export async function defaultMenu(context: MenuContext, now = new Date()): Promise<MenuWeek[]> {
  const cards = [...cardsByLink(await siteRecipes(context)).values()];
  const today = helsinkiToday(now);
  const { year, week } = isoWeekOf(today.year, today.month, today.day);
  const t = serverT(context.lang);
  const perDay = Math.min(2, Math.floor(cards.length / WEEKDAYS.length));
  const start = cards.length > 0 ? (week * 7) % cards.length : 0;
  const days = Object.fromEntries(
    WEEKDAYS.map((day, d) => [
      day,
      Array.from({ length: perDay }, (_, k) => cards[(start + d * perDay + k) % cards.length]),
    ]),
  ) as Record<Weekdays, MenuCard[]>;
  return [
    {
      year,
      week,
      heading: t('lunchMenu.defaultHeading'),
      text: t('lunchMenu.defaultText'),
      background: 'plain' satisfies Background,
      ...days,
    },
  ];
}

/** The menu a query picks: the saved one its `menuId` names, else the default one. */
export async function menuOf(context: MenuContext, menuId: string | undefined) {
  return menuId ? loadMenu(context, menuId) : defaultMenu(context);
}
