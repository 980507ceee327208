import { sendWithToken } from '../../client/send.ts';
import {
  MENU_API,
  MENU_RECIPES_API,
  type MenuCard,
  type MenuRecipes,
  type MenuWeek,
} from './values.ts';

/** The browser side of the lunch menu's API (spec §7), with the anti-forgery header. */

/** A refused save: its status and the message keys of the fields it names. */
export class MenuSaveError extends Error {
  constructor(
    readonly status: number,
    readonly errors: Record<string, string>,
  ) {
    super(`lunch menu API answered ${status}`);
  }
}

export async function fetchRecipes(): Promise<MenuRecipes> {
  const response = await fetch(MENU_RECIPES_API, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${MENU_RECIPES_API}: ${response.status}`);
  return (await response.json()) as MenuRecipes;
}

/** Saves the weeks as a new menu and answers its id. */
export async function saveMenu(weeks: MenuWeek[]): Promise<string> {
  const card = ({ header, link, image }: MenuCard) => ({ header, link, image });
  const body = weeks.map((w) => ({
    year: w.year,
    week: w.week,
    heading: w.heading,
    text: w.text,
    background: w.background,
    monday: w.monday.map(card),
    tuesday: w.tuesday.map(card),
    wednesday: w.wednesday.map(card),
    thursday: w.thursday.map(card),
    friday: w.friday.map(card),
  }));
  const response = await sendWithToken(MENU_API, body);
  if (response.ok) return ((await response.json()) as { menuId: string }).menuId;
  const problem = (await response.json().catch(() => ({}))) as { errors?: Record<string, string> };
  throw new MenuSaveError(response.status, problem.errors ?? {});
}
