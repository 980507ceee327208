import { type Dispatch, type SetStateAction, useEffect, useRef, useState } from 'react';
import { useT } from '../../i18n/react.tsx';
import type { Translate } from '../../i18n/translate.ts';
import {
  DAY_NAME_KEYS,
  type IsoWeek,
  MENU_LIMITS,
  type MenuCard,
  type MenuRecipes,
  type MenuWeek,
  mondayOf,
  sameWeek,
  stepWeek,
  WEEKDAYS,
  type Weekday,
  weekWithin,
} from './values.ts';

/**
 * The menu as the edit mode changes it (`MenuEditor`): its weeks and their cards, and every
 * change to them, each said to a screen reader (`announce`).
 */

export interface EditCard extends MenuCard {
  /** Stable while the card is edited, so moving keeps its element and focus. */
  uid: string;
}
export type EditWeek = Omit<MenuWeek, Weekday> & Record<Weekday, EditCard[]>;

/** The recipe search open: for a day's new card, or for a card to replace. */
export type Search =
  | { mode: 'add'; week: number; day: Weekday }
  | { mode: 'replace'; week: number; day: Weekday; uid: string };

/** Where a card is moved to: a week, a day, a position (counted without the card). */
export interface Place {
  week: number;
  day: Weekday;
  index: number;
}

/** The moves of a card's Move menu. */
export const MOVES = ['up', 'down', 'prevDay', 'nextDay', 'prevWeek', 'nextWeek'] as const;
export type Move = (typeof MOVES)[number];

let uids = 0;
const nextUid = () => `c${++uids}`;

/** The weeks to edit: consecutive from the saved first week, or from this week if that is past. */
function draftOf(weeks: MenuWeek[], bounds: { first: IsoWeek; last: IsoWeek }): EditWeek[] {
  const saved = weeks[0];
  const start = saved && weekWithin(saved, bounds) ? saved : bounds.first;
  const draft: EditWeek[] = [];
  weeks.forEach((week, i) => {
    const number = stepWeek(start, i);
    if (mondayOf(number) > mondayOf(bounds.last)) return;
    draft.push({
      ...week,
      ...number,
      ...(Object.fromEntries(
        WEEKDAYS.map((d) => [d, week[d].map((card) => ({ ...card, uid: nextUid() }))]),
      ) as Record<Weekday, EditCard[]>),
    });
  });
  return draft;
}

/** Where a card is: its week, day and index. */
function find(weeks: EditWeek[], uid: string) {
  for (const [w, week] of weeks.entries()) {
    for (const day of WEEKDAYS) {
      const index = week[day].findIndex((c) => c.uid === uid);
      if (index >= 0) return { w, day, index, card: week[day][index] as EditCard };
    }
  }
  return null;
}

/** The field a server's error names, as the summary shows it: `weeks.0.monday.1.link`. */
export function whereOf(field: string, weeks: EditWeek[]) {
  const [, w, part, index] = field.split('.');
  const week = weeks[Number(w)];
  const day = WEEKDAYS.includes(part as Weekday) ? (part as Weekday) : undefined;
  const card = day && week ? week[day][Number(index)] : undefined;
  return { week, day, card, part };
}

/** Where a move of the Move menu takes the card at `at`; undefined where it cannot go. */
function placeOf(
  at: { w: number; day: Weekday; index: number },
  move: Move,
  weekCount: number,
): Place | undefined {
  const d = WEEKDAYS.indexOf(at.day);
  const end = Number.POSITIVE_INFINITY;
  switch (move) {
    case 'up':
      return { week: at.w, day: at.day, index: at.index - 1 };
    case 'down':
      return { week: at.w, day: at.day, index: at.index + 1 };
    case 'prevDay':
      return d > 0 ? { week: at.w, day: WEEKDAYS[d - 1] as Weekday, index: end } : undefined;
    case 'nextDay':
      return d < 4 ? { week: at.w, day: WEEKDAYS[d + 1] as Weekday, index: end } : undefined;
    // The same weekday of the week before or after, at the end of its list (as a drag may).
    case 'prevWeek':
      return at.w > 0 ? { week: at.w - 1, day: at.day, index: end } : undefined;
    case 'nextWeek':
      return at.w < weekCount - 1 ? { week: at.w + 1, day: at.day, index: end } : undefined;
  }
}

export function useMenuDraft(
  saved: MenuWeek[],
  bounds: { first: IsoWeek; last: IsoWeek },
  options: { announce: (text: string) => void; focusStart: () => void },
) {
  const t = useT();
  const [weeks, setWeeks] = useState(() => draftOf(saved, bounds));
  const focusAfter = useRef<string | null>(null);

  // After a move the card's Move button has the focus again, wherever the card went.
  useEffect(() => {
    const uid = focusAfter.current;
    if (!uid) return;
    focusAfter.current = null;
    const focus = () =>
      document.querySelector<HTMLElement>(`[data-move-card="${CSS.escape(uid)}"]`)?.focus();
    requestAnimationFrame(() => setTimeout(focus, 0));
  });

  const draft: Draft = { weeks, setWeeks, t, announce: options.announce };
  return {
    weeks,
    ...cardChanges(draft, (uid) => {
      focusAfter.current = uid;
    }),
    ...weekChanges(draft, bounds, options.focusStart),
  };
}

export type MenuDraft = ReturnType<typeof useMenuDraft>;

/** What the changes work on: the weeks, their setter, the texts, the announcer. */
interface Draft {
  weeks: EditWeek[];
  setWeeks: Dispatch<SetStateAction<EditWeek[]>>;
  t: Translate;
  announce: (text: string) => void;
}

/** The week's own fields changed (heading, text, background, a day's cards). */
const updater =
  ({ setWeeks }: Draft) =>
  (w: number, change: Partial<EditWeek>) =>
    setWeeks((all) => all.map((week, i) => (i === w ? { ...week, ...change } : week)));

/** The changes of cards: moved (by pointer or the Move menu), removed, added or replaced. */
function cardChanges(draft: Draft, focusLater: (uid: string) => void) {
  const { weeks, setWeeks, t, announce } = draft;
  const update = updater(draft);
  const dayName = (day: Weekday) => t(DAY_NAME_KEYS[day]);

  /** Moves a card to a day and position (counted without the card), if the day has room. */
  const moveCard = (uid: string, place: Place, focus: boolean) => {
    const from = find(weeks, uid);
    if (!from) return;
    const target = weeks[place.week];
    if (!target) return;
    const sameDay = from.w === place.week && from.day === place.day;
    if (!sameDay && target[place.day].length >= MENU_LIMITS.cardsPerDay) {
      announce(t('lunchMenu.dayFull', { count: MENU_LIMITS.cardsPerDay }));
      return;
    }
    const next = weeks.map((w) => ({
      ...w,
      ...Object.fromEntries(WEEKDAYS.map((d) => [d, [...w[d]]])),
    })) as EditWeek[];
    next[from.w]?.[from.day].splice(from.index, 1);
    const list = next[place.week]?.[place.day];
    if (!list) return;
    const index = Math.max(0, Math.min(place.index, list.length));
    if (sameDay && index === from.index) return;
    list.splice(index, 0, from.card);
    setWeeks(next);
    if (focus) focusLater(uid);
    announce(
      t('lunchMenu.moved', {
        name: from.card.header,
        day: `${t('lunchMenu.week', { week: target.week })}, ${dayName(place.day)}`,
        position: String(index + 1),
      }),
    );
  };

  /** A move of the card's Move menu; the focus comes back to its Move button. */
  const moveByMenu = (uid: string, move: Move) => {
    const at = find(weeks, uid);
    const place = at && placeOf(at, move, weeks.length);
    if (place) moveCard(uid, place, true);
  };

  const removeCard = (uid: string) => {
    const at = find(weeks, uid);
    if (!at) return;
    const week = weeks[at.w];
    if (!week) return;
    update(at.w, { [at.day]: week[at.day].filter((c) => c.uid !== uid) });
    announce(t('lunchMenu.removed', { name: at.card.header }));
    // The focus goes to the day's add button, which stays.
    requestAnimationFrame(() =>
      document.querySelector<HTMLElement>(`[data-add-day="${at.w}-${at.day}"]`)?.focus(),
    );
  };

  /** The recipe picked in the search: a new card of the day, or the replaced card. */
  const putRecipe = (search: Search, name: string, recipe: MenuRecipes[string]) => {
    const week = weeks[search.week];
    if (!week) return;
    const card = { header: name, link: recipe.link, image: recipe.image };
    if (search.mode === 'add') {
      update(search.week, { [search.day]: [...week[search.day], { ...card, uid: nextUid() }] });
      announce(t('lunchMenu.added', { name, day: dayName(search.day) }));
      return;
    }
    const old = week[search.day].find((c) => c.uid === search.uid);
    update(search.week, {
      [search.day]: week[search.day].map((c) =>
        c.uid === search.uid ? { ...card, uid: c.uid } : c,
      ),
    });
    announce(t('lunchMenu.replaced', { old: old?.header ?? '', name }));
  };

  return { update, moveCard, moveByMenu, removeCard, putRecipe };
}

/**
 * The changes of weeks: numbered consecutively from the first, which steps within this week …
 * 31 December; a week more (its texts and background as the last one's), a week less.
 */
function weekChanges(
  draft: Draft,
  bounds: { first: IsoWeek; last: IsoWeek },
  focusStart: () => void,
) {
  const { weeks, setWeeks, t } = draft;
  const first: IsoWeek = weeks[0] ?? bounds.first;
  const lastWeek: IsoWeek = weeks[weeks.length - 1] ?? bounds.first;
  const renumber = (from: IsoWeek) =>
    setWeeks((all) => all.map((week, i) => ({ ...week, ...stepWeek(from, i) })));
  const canAddWeek = weeks.length < MENU_LIMITS.weeks && !sameWeek(lastWeek, bounds.last);
  const addWeek = () => {
    const model = weeks[weeks.length - 1];
    setWeeks((all) => [
      ...all,
      {
        ...stepWeek(lastWeek, 1),
        heading: model?.heading ?? t('lunchMenu.defaultHeading'),
        text: model?.text ?? '',
        background: model?.background ?? 'plain',
        monday: [],
        tuesday: [],
        wednesday: [],
        thursday: [],
        friday: [],
      },
    ]);
  };
  const removeWeek = (w: number) => {
    setWeeks((all) =>
      all.filter((_, i) => i !== w).map((week, i) => ({ ...week, ...stepWeek(first, i) })),
    );
    requestAnimationFrame(focusStart);
  };
  return { first, lastWeek, renumber, canAddWeek, addWeek, removeWeek };
}
