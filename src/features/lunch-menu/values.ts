/**
 * The weekly lunch menu's contract without zod (spec shop-and-widgets §3, §4, §7, §9; decision
 * 042): paths, limits, the weekdays, the backgrounds and ISO week arithmetic. Browser-safe: the
 * island builds its requests and bounds its controls with these; `schemas.ts` validates with them.
 */

export const MENU_API = '/api/fs/menu';
export const MENU_RECIPES_API = '/api/fs/menu/recipes';

/** Spec §9: Monday to Friday. */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The text keys of the weekdays' names (keys written out, so the island's texts find them). */
export const DAY_NAME_KEYS = {
  monday: 'lunchMenu.day.monday',
  tuesday: 'lunchMenu.day.tuesday',
  wednesday: 'lunchMenu.day.wednesday',
  thursday: 'lunchMenu.day.thursday',
  friday: 'lunchMenu.day.friday',
} as const satisfies Record<Weekday, string>;

/** Limits of a saved menu (decision 042). */
export const MENU_LIMITS = {
  weeks: 10,
  cardsPerDay: 4,
  heading: 80,
  text: 600,
  header: 120,
  link: 300,
  image: 300,
} as const;

/** Spec §9: a drag moves a card only when it went further than 50 px and was held over 200 ms. */
export const DRAG_MIN_DISTANCE_PX = 50;
export const DRAG_MIN_HOLD_MS = 200;

/** The backgrounds a week's page can have, drawn by the stylesheet (no image files). */
export const BACKGROUNDS = ['plain', 'leaves', 'checks', 'waves'] as const;
export type Background = (typeof BACKGROUNDS)[number];
export const BACKGROUND_NAME_KEYS = {
  plain: 'lunchMenu.background.plain',
  leaves: 'lunchMenu.background.leaves',
  checks: 'lunchMenu.background.checks',
  waves: 'lunchMenu.background.waves',
} as const satisfies Record<Background, string>;

/** A saved menu's id: 128 random bits as base64url. */
export const MENU_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

export interface MenuCard {
  header: string;
  link: string;
  image: string;
}

export type MenuWeek = {
  year: number;
  week: number;
  heading: string;
  text: string;
  background: Background;
} & Record<Weekday, MenuCard[]>;

/** `GET /api/fs/menu/recipes`: the site's recipes by name. */
export type MenuRecipes = Record<string, { link: string; image: string }>;

/** An ISO week: its week-numbering year and number. */
export interface IsoWeek {
  year: number;
  week: number;
}

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a calendar date. */
function dayNumber(year: number, month: number, day: number): number {
  return Math.floor(Date.UTC(year, month - 1, day) / DAY_MS);
}

/** The ISO week of a calendar date (month 1–12). */
export function isoWeekOf(year: number, month: number, day: number): IsoWeek {
  const n = dayNumber(year, month, day);
  const weekday = (((n + 3) % 7) + 7) % 7; // 0 = Monday (1970-01-01 was a Thursday)
  const thursday = n - weekday + 3;
  const thursdayYear = new Date(thursday * DAY_MS).getUTCFullYear();
  const week = Math.floor((thursday - dayNumber(thursdayYear, 1, 1)) / 7) + 1;
  return { year: thursdayYear, week };
}

/** Days since 1970-01-01 of the Monday of an ISO week. */
export function mondayOf({ year, week }: IsoWeek): number {
  const jan4 = dayNumber(year, 1, 4);
  const jan4Weekday = (((jan4 + 3) % 7) + 7) % 7;
  return jan4 - jan4Weekday + (week - 1) * 7;
}

/** The number of ISO weeks of a week-numbering year: 52 or 53. */
export function weeksInYear(year: number): number {
  return isoWeekOf(year, 12, 28).week;
}

/** The week after (or, with a negative step, before) an ISO week. */
export function stepWeek(week: IsoWeek, step: number): IsoWeek {
  const date = new Date((mondayOf(week) + step * 7) * DAY_MS);
  return isoWeekOf(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
}

/** Whether two ISO weeks are the same. */
export function sameWeek(a: IsoWeek, b: IsoWeek): boolean {
  return a.year === b.year && a.week === b.week;
}

/** Today's calendar date in Helsinki, where the menus are served. */
export function helsinkiToday(now: Date = new Date()): {
  year: number;
  month: number;
  day: number;
} {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Helsinki',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: part('year'), month: part('month'), day: part('day') };
}

/**
 * The weeks a menu may hold on a given day (spec §4, §9): from the current ISO week to the last
 * week whose Monday is on or before 31 December of the current year.
 */
export function weekBounds(now: Date = new Date()): { first: IsoWeek; last: IsoWeek } {
  const today = helsinkiToday(now);
  const first = isoWeekOf(today.year, today.month, today.day);
  const dec31 = isoWeekOf(today.year, 12, 31);
  // 31 December in week 1 of the next year: that week's Monday is still in December.
  return { first, last: dec31 };
}

/** Whether an ISO week lies within the bounds (inclusive). */
export function weekWithin(week: IsoWeek, bounds: { first: IsoWeek; last: IsoWeek }): boolean {
  const monday = mondayOf(week);
  return monday >= mondayOf(bounds.first) && monday <= mondayOf(bounds.last);
}
