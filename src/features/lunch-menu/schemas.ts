import { z } from 'zod';
import {
  BACKGROUNDS,
  MENU_ID_PATTERN,
  MENU_LIMITS,
  mondayOf,
  sameWeek,
  WEEKDAYS,
  weekBounds,
  weeksInYear,
  weekWithin,
} from './values.ts';

/**
 * The lunch menu's zod schemas (spec shop-and-widgets §3, §7; decision 042). Error messages are
 * message keys of the i18n catalogue. Server-side only in practice (the island checks with the
 * plain limits of `values.ts`, so zod stays out of its chunk).
 */

const INVALID = 'validation.invalid';
const REQUIRED = 'validation.required';
export const TOO_LONG = 'lunchMenu.error.tooLong';
export const UNKNOWN_RECIPE = 'lunchMenu.error.unknownRecipe';
export const TOO_MANY_WEEKS = 'lunchMenu.error.tooManyWeeks';
export const TOO_MANY_CARDS = 'lunchMenu.error.tooManyCards';
export const WEEK_OUT_OF_RANGE = 'lunchMenu.error.weekOutOfRange';
export const WEEKDAYS_ONLY = 'lunchMenu.error.weekdays';
export const WEEK_ORDER = 'lunchMenu.error.weekOrder';

/** No NUL bytes (PostgreSQL text cannot hold them) nor other control characters but tab and newline. */
const printable = (value: string) => {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if ((code < 32 && code !== 9 && code !== 10) || code === 127) return false;
  }
  return true;
};

const text = (max: number, min = 0) =>
  z
    .string({ error: INVALID })
    .refine(printable, INVALID)
    .transform((value) => value.trim())
    .pipe(z.string().min(min, REQUIRED).max(max, TOO_LONG));

const whole = (min: number, max: number) =>
  z
    .number({ error: INVALID })
    .min(min, INVALID)
    .max(max, INVALID)
    // Not `.int()`: its issue reads as a missing value to the error mapper.
    .refine(Number.isInteger, INVALID)
    .meta({ type: 'integer' });

export const menuCardSchema = z
  .object({
    header: text(MENU_LIMITS.header),
    link: z
      .string({ error: INVALID })
      .min(1, REQUIRED)
      .max(MENU_LIMITS.link, UNKNOWN_RECIPE)
      .regex(/^\/[^\s]*$/, UNKNOWN_RECIPE)
      .meta({ description: "A path of one of the site's own recipes." }),
    image: z
      .string({ error: INVALID })
      .max(MENU_LIMITS.image, TOO_LONG)
      .optional()
      .meta({ description: 'Ignored on a save: the recipe’s own picture is stored.' }),
  })
  .meta({ id: 'LunchMenuCard', description: 'A recipe on a weekday: header, link and image.' });

const day = z
  .array(menuCardSchema, { error: INVALID })
  .max(MENU_LIMITS.cardsPerDay, TOO_MANY_CARDS);

const WEEK_KEYS = new Set(['year', 'week', 'heading', 'text', 'background', ...WEEKDAYS]);

export const menuWeekSchema = z
  .looseObject({
    year: whole(2000, 2999),
    week: whole(1, 53),
    heading: text(MENU_LIMITS.heading),
    text: text(MENU_LIMITS.text),
    background: z.enum(BACKGROUNDS, { error: INVALID }).default('plain'),
    monday: day,
    tuesday: day,
    wednesday: day,
    thursday: day,
    friday: day,
  })
  // Monday to Friday only: another key (saturday, sunday, a typo) is refused by its own name.
  .superRefine((week, ctx) => {
    for (const key of Object.keys(week)) {
      if (!WEEK_KEYS.has(key))
        ctx.addIssue({ code: 'custom', path: [key], message: WEEKDAYS_ONLY });
    }
  })
  .meta({ id: 'LunchMenuWeek', description: 'An ISO week of the menu with Monday–Friday cards.' });

/** A menu as it is saved: 1–10 weeks, each a real ISO week from this week to 31 December. */
export function menuPostSchema(now: () => Date = () => new Date()) {
  return z
    .array(menuWeekSchema, { error: INVALID })
    .min(1, REQUIRED)
    .max(MENU_LIMITS.weeks, TOO_MANY_WEEKS)
    .superRefine((weeks, ctx) => {
      const bounds = weekBounds(now());
      weeks.forEach((w, i) => {
        if (w.week > weeksInYear(w.year) || !weekWithin(w, bounds)) {
          ctx.addIssue({ code: 'custom', path: [i, 'week'], message: WEEK_OUT_OF_RANGE });
          return;
        }
        const before = weeks[i - 1];
        if (before && (sameWeek(before, w) || mondayOf(before) > mondayOf(w))) {
          ctx.addIssue({ code: 'custom', path: [i, 'week'], message: WEEK_ORDER });
        }
      });
    })
    .describe(
      'The weeks of a menu in order: each an ISO week (`year`, `week`) from the current week to the week of 31 December, with heading, text, background and Monday–Friday cards.',
    );
}
export type MenuPost = z.input<ReturnType<typeof menuPostSchema>>;
/** A validated post: trimmed texts, the background defaulted. */
export type MenuInput = z.output<ReturnType<typeof menuPostSchema>>;

const storedCard = z.object({ header: z.string(), link: z.string(), image: z.string() });

/** What a menu answers and stores: cards with their recipe's header, link and image. */
export const menuWeeksSchema = z
  .array(
    z
      .object({
        year: z.number().int(),
        week: z.number().int(),
        heading: z.string(),
        text: z.string(),
        background: z.enum(BACKGROUNDS),
        monday: z.array(storedCard),
        tuesday: z.array(storedCard),
        wednesday: z.array(storedCard),
        thursday: z.array(storedCard),
        friday: z.array(storedCard),
      })
      .meta({ id: 'LunchMenuWeekAnswer' }),
  )
  .meta({ id: 'LunchMenu', description: 'The weeks of a menu, Monday to Friday cards each.' });

/** One query value: a repeated parameter (an array) is invalid, not missing. */
const single = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (Array.isArray(value) ? '' : value), schema);

/** `GET /api/fs/menu`: the page's own query string; `menuId` picks a saved menu. */
export const menuQuerySchema = z.object({
  menuId: single(z.string().regex(MENU_ID_PATTERN, INVALID)).optional(),
});

export const menuSavedSchema = z
  .object({ menuId: z.string() })
  .meta({ id: 'LunchMenuSaved', description: 'The id of the new, immutable menu.' });

export const menuRecipesSchema = z
  .record(z.string(), z.object({ link: z.string(), image: z.string() }))
  .meta({ id: 'LunchMenuRecipes', description: "The site's recipes by name: link and image." });
