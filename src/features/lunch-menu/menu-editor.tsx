import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Autocomplete,
  Button,
  Dialog,
  FieldError,
  Heading,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Menu,
  MenuItem,
  MenuTrigger,
  Modal,
  ModalOverlay,
  Popover,
  Radio,
  RadioGroup,
  SearchField,
  Tab,
  TabList,
  TabPanel,
  Tabs,
  TextArea,
  TextField,
  useFilter,
} from 'react-aria-components';
import { useT } from '../../i18n/react.tsx';
import type { MessageKey } from '../../i18n/translate.ts';
import { fetchRecipes, MenuSaveError, saveMenu } from './api.ts';
import { type DropPlace, useCardDrag } from './drag.ts';
import styles from './lunch-menu.module.css';
import {
  BACKGROUND_NAME_KEYS,
  BACKGROUNDS,
  type Background,
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
  weekBounds,
  weekWithin,
} from './values.ts';

interface EditCard extends MenuCard {
  /** Stable while the card is edited, so moving keeps its element and focus. */
  uid: string;
}
type EditWeek = Omit<MenuWeek, Weekday> & Record<Weekday, EditCard[]>;

type Search =
  | { mode: 'add'; week: number; day: Weekday }
  | { mode: 'replace'; week: number; day: Weekday; uid: string };

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
function whereOf(field: string, weeks: EditWeek[]) {
  const [, w, part, index] = field.split('.');
  const week = weeks[Number(w)];
  const day = WEEKDAYS.includes(part as Weekday) ? (part as Weekday) : undefined;
  const card = day && week ? week[day][Number(index)] : undefined;
  return { week, day, card, part };
}

/**
 * The lunch menu's edit mode (spec §2, §4, §6): the first week steps from the current ISO week
 * to the last one that starts by 31 December, weeks are added and removed, each week has tabs for
 * its texts and its background picture, and each day's dishes are added, replaced (a recipe
 * search), removed and moved: by pointer (further than 50 px, held over 200 ms), or with the
 * card's Move menu, which a screen reader hears announced. Saving posts the weeks and reloads the
 * page with the new menu's id; a refused save lists what to fix, as the site's forms do.
 */
export function MenuEditor(props: { weeks: MenuWeek[]; onCancel: () => void }) {
  const t = useT();
  const bounds = useMemo(() => weekBounds(), []);
  const [weeks, setWeeks] = useState(() => draftOf(props.weeks, bounds));
  const [recipes, setRecipes] = useState<MenuRecipes | 'failed' | null>(null);
  const [search, setSearch] = useState<Search | null>(null);
  const [tabs, setTabs] = useState<Record<number, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<MessageKey | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [saving, setSaving] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const focusAfter = useRef<string | null>(null);
  const summary = useRef<HTMLDivElement>(null);
  const start = useRef<HTMLHeadingElement>(null);
  const pageTitle = useRef<string | null>(null);

  useEffect(() => {
    fetchRecipes().then(setRecipes, () => setRecipes('failed'));
    start.current?.focus();
  }, []);

  // A refused save prefixes the page's title and moves the focus to the summary.
  const failed = Object.keys(errors).length > 0 || failure !== null;
  useEffect(() => {
    pageTitle.current ??= document.title;
    document.title = failed
      ? t('lunchMenu.errorTitle', { title: pageTitle.current })
      : pageTitle.current;
  }, [failed, t]);
  useEffect(
    () => () => {
      if (pageTitle.current !== null) document.title = pageTitle.current;
    },
    [],
  );
  useEffect(() => {
    if (attempt > 0) summary.current?.focus();
  }, [attempt]);

  // After a move the card's Move button has the focus again, wherever the card went.
  useEffect(() => {
    const uid = focusAfter.current;
    if (!uid) return;
    focusAfter.current = null;
    const focus = () =>
      document.querySelector<HTMLElement>(`[data-move-card="${CSS.escape(uid)}"]`)?.focus();
    requestAnimationFrame(() => setTimeout(focus, 0));
  });

  const dayName = (day: Weekday) => t(DAY_NAME_KEYS[day]);

  /** Moves a card to a day and position (counted without the card), if the day has room. */
  const moveCard = (
    uid: string,
    place: { week: number; day: Weekday; index: number },
    focus: boolean,
  ) => {
    const from = find(weeks, uid);
    if (!from) return;
    const target = weeks[place.week];
    if (!target) return;
    const sameDay = from.w === place.week && from.day === place.day;
    if (!sameDay && target[place.day].length >= MENU_LIMITS.cardsPerDay) {
      setAnnouncement(t('lunchMenu.dayFull', { count: MENU_LIMITS.cardsPerDay }));
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
    if (focus) focusAfter.current = uid;
    setAnnouncement(
      t('lunchMenu.moved', {
        name: from.card.header,
        day: `${t('lunchMenu.week', { week: target.week })}, ${dayName(place.day)}`,
        position: String(index + 1),
      }),
    );
  };

  const onPointerDown = useCardDrag({
    onDrop: (uid, place: DropPlace) =>
      moveCard(uid, { ...place, day: place.day as Weekday }, false),
    draggingClass: styles.dragging ?? '',
    dropClass: styles.dropTarget ?? '',
  });

  const keyboardMove = (uid: string, action: string) => {
    const at = find(weeks, uid);
    if (!at) return;
    const d = WEEKDAYS.indexOf(at.day);
    const to: Record<string, { day: Weekday; index: number } | undefined> = {
      up: { day: at.day, index: at.index - 1 },
      down: { day: at.day, index: at.index + 1 },
      prevDay:
        d > 0 ? { day: WEEKDAYS[d - 1] as Weekday, index: Number.POSITIVE_INFINITY } : undefined,
      nextDay:
        d < 4 ? { day: WEEKDAYS[d + 1] as Weekday, index: Number.POSITIVE_INFINITY } : undefined,
    };
    // The same weekday of the week before or after, at the end of its list (as a drag may).
    const week = { prevWeek: at.w - 1, nextWeek: at.w + 1 }[action];
    if (week !== undefined) {
      if (week >= 0 && week < weeks.length) {
        moveCard(uid, { week, day: at.day, index: Number.POSITIVE_INFINITY }, true);
      }
      return;
    }
    const place = to[action];
    if (place) moveCard(uid, { week: at.w, ...place }, true);
  };

  const update = (w: number, change: Partial<EditWeek>) =>
    setWeeks((all) => all.map((week, i) => (i === w ? { ...week, ...change } : week)));

  const removeCard = (uid: string) => {
    const at = find(weeks, uid);
    if (!at) return;
    const week = weeks[at.w];
    if (!week) return;
    update(at.w, { [at.day]: week[at.day].filter((c) => c.uid !== uid) });
    setAnnouncement(t('lunchMenu.removed', { name: at.card.header }));
    // The focus goes to the day's add button, which stays.
    requestAnimationFrame(() =>
      document.querySelector<HTMLElement>(`[data-add-day="${at.w}-${at.day}"]`)?.focus(),
    );
  };

  const pick = (name: string) => {
    if (!search || !recipes || recipes === 'failed') return;
    const recipe = recipes[name];
    const week = weeks[search.week];
    if (!recipe || !week) return;
    const card = { header: name, link: recipe.link, image: recipe.image };
    if (search.mode === 'add') {
      update(search.week, { [search.day]: [...week[search.day], { ...card, uid: nextUid() }] });
      setAnnouncement(t('lunchMenu.added', { name, day: dayName(search.day) }));
    } else {
      const old = week[search.day].find((c) => c.uid === search.uid);
      update(search.week, {
        [search.day]: week[search.day].map((c) =>
          c.uid === search.uid ? { ...card, uid: c.uid } : c,
        ),
      });
      setAnnouncement(t('lunchMenu.replaced', { old: old?.header ?? '', name }));
    }
    setSearch(null);
  };

  // Week numbers: consecutive from the first, which steps within this week … 31 December.
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
    requestAnimationFrame(() => start.current?.focus());
  };

  const save = async () => {
    setSaving(true);
    try {
      const menuId = await saveMenu(weeks);
      const url = new URL(window.location.href);
      url.searchParams.set('menuId', menuId);
      window.location.assign(url.toString());
    } catch (error) {
      setSaving(false);
      if (
        error instanceof MenuSaveError &&
        error.status === 400 &&
        Object.keys(error.errors).length
      ) {
        setErrors(error.errors);
        setFailure(null);
        setTabs({});
      } else {
        setErrors({});
        setFailure(
          error instanceof MenuSaveError && error.status === 429
            ? 'lunchMenu.errors.busy'
            : 'lunchMenu.errors.failed',
        );
      }
      setAttempt((n) => n + 1);
    }
  };

  const fieldError = (field: string) => {
    const key = errors[field];
    return key ? t(key as MessageKey) : undefined;
  };

  return (
    <div className={styles.menu} data-lunch-menu="" data-editing="" data-keep-clear="">
      <h2 ref={start} tabIndex={-1} className="visually-hidden">
        {t('lunchMenu.edit')}
      </h2>
      <p className={styles.intro}>{t('lunchMenu.editing')}</p>
      {failed ? (
        <div ref={summary} tabIndex={-1} className={styles.summary} role="alert">
          <h2>{t('lunchMenu.errors.title')}</h2>
          {failure ? <p>{t(failure)}</p> : null}
          <ul>
            {Object.entries(errors).map(([field, key]) => {
              const { week, day, card } = whereOf(field, weeks);
              const where = [
                week ? t('lunchMenu.week', { week: week.week }) : null,
                day ? dayName(day) : null,
                card?.header ?? null,
              ]
                .filter(Boolean)
                .join(', ');
              return (
                <li key={field}>
                  {where ? `${where}: ` : ''}
                  {t(key as MessageKey)}
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
      <div className={styles.toolbar}>
        <Button className={styles.primary} onPress={save} isDisabled={saving}>
          {saving ? t('lunchMenu.saving') : t('lunchMenu.save')}
        </Button>
        <Button className={styles.secondary} onPress={props.onCancel} isDisabled={saving}>
          {t('lunchMenu.cancel')}
        </Button>
        <fieldset className={styles.weekStepper} style={{ border: 0, margin: 0, padding: 0 }}>
          <legend className="visually-hidden">{t('lunchMenu.firstWeek')}</legend>
          <span aria-hidden="true">{t('lunchMenu.firstWeek')}</span>
          <Button
            className={styles.small}
            aria-label={t('lunchMenu.weekEarlier')}
            isDisabled={sameWeek(first, bounds.first)}
            onPress={() => renumber(stepWeek(first, -1))}
          >
            −
          </Button>
          <output aria-live="polite">{t('lunchMenu.week', { week: first.week })}</output>
          <Button
            className={styles.small}
            aria-label={t('lunchMenu.weekLater')}
            isDisabled={sameWeek(lastWeek, bounds.last)}
            onPress={() => renumber(stepWeek(first, 1))}
          >
            +
          </Button>
        </fieldset>
        <Button className={styles.secondary} onPress={addWeek} isDisabled={!canAddWeek}>
          {t('lunchMenu.addWeek')}
        </Button>
      </div>
      <p className={styles.hint}>
        {t('lunchMenu.dragHint')} {t('lunchMenu.lastWeek', { week: bounds.last.week })}
      </p>
      <p role="status" className="visually-hidden">
        {announcement}
      </p>
      <div className={styles.weeks}>
        {weeks.map((week, w) => (
          <article
            key={`${week.year}-${week.week}`}
            className={styles.week}
            data-background={week.background}
            aria-labelledby={`lunch-edit-week-${w}`}
          >
            <div className={styles.weekTools}>
              <h2 id={`lunch-edit-week-${w}`} className={styles.weekHeading}>
                {t('lunchMenu.week', { week: week.week })}
              </h2>
              <Button
                className={styles.small}
                isDisabled={weeks.length <= 1}
                onPress={() => removeWeek(w)}
              >
                {t('lunchMenu.removeWeek', { week: week.week })}
              </Button>
            </div>
            <Tabs
              selectedKey={tabs[w] ?? 'texts'}
              onSelectionChange={(key) => setTabs((all) => ({ ...all, [w]: String(key) }))}
            >
              <TabList
                className={styles.tabList}
                aria-label={t('lunchMenu.settings', { week: week.week })}
              >
                <Tab id="texts" className={styles.tab}>
                  {t('lunchMenu.tab.texts')}
                </Tab>
                <Tab id="background" className={styles.tab}>
                  {t('lunchMenu.tab.background')}
                </Tab>
              </TabList>
              <TabPanel id="texts" className={styles.tabPanel}>
                <TextField
                  className={styles.field}
                  value={week.heading}
                  onChange={(heading) => update(w, { heading })}
                  maxLength={MENU_LIMITS.heading}
                  isInvalid={Boolean(fieldError(`weeks.${w}.heading`))}
                >
                  <Label>{t('lunchMenu.heading')}</Label>
                  <Input />
                  <FieldError className={styles.fieldError}>
                    {fieldError(`weeks.${w}.heading`)}
                  </FieldError>
                </TextField>
                <TextField
                  className={styles.field}
                  value={week.text}
                  onChange={(text) => update(w, { text })}
                  maxLength={MENU_LIMITS.text}
                  isInvalid={Boolean(fieldError(`weeks.${w}.text`))}
                >
                  <Label>{t('lunchMenu.text')}</Label>
                  <TextArea rows={3} />
                  <FieldError className={styles.fieldError}>
                    {fieldError(`weeks.${w}.text`)}
                  </FieldError>
                </TextField>
              </TabPanel>
              <TabPanel id="background" className={styles.tabPanel}>
                <RadioGroup
                  className={styles.backgrounds}
                  aria-label={t('lunchMenu.tab.background')}
                  orientation="horizontal"
                  value={week.background}
                  onChange={(value) => update(w, { background: value as Background })}
                >
                  {BACKGROUNDS.map((background) => (
                    <Radio key={background} value={background} className={styles.backgroundOption}>
                      <span
                        className={styles.swatch}
                        data-background={background}
                        aria-hidden="true"
                      />
                      {t(BACKGROUND_NAME_KEYS[background])}
                    </Radio>
                  ))}
                </RadioGroup>
              </TabPanel>
            </Tabs>
            <div className={styles.days}>
              {WEEKDAYS.map((day, d) => (
                <section
                  key={day}
                  className={styles.day}
                  data-drop-week={w}
                  data-drop-day={day}
                  aria-labelledby={`lunch-edit-${w}-${day}`}
                >
                  <h3 id={`lunch-edit-${w}-${day}`} className={styles.dayName}>
                    {dayName(day)}
                  </h3>
                  <ul className={styles.cards}>
                    {week[day].map((card, i) => (
                      <li
                        key={card.uid}
                        data-card={card.uid}
                        className={`${styles.card} ${styles.editCard}`}
                        onPointerDown={onPointerDown(card.uid)}
                      >
                        <div className={styles.cardLink}>
                          {card.image ? (
                            <img
                              className={styles.cardImage}
                              src={card.image}
                              alt=""
                              width={800}
                              height={450}
                            />
                          ) : (
                            <span className={styles.cardImage} />
                          )}
                          <span className={styles.cardHeader}>{card.header}</span>
                        </div>
                        {fieldError(`weeks.${w}.${day}.${i}.link`) ? (
                          <p className={styles.fieldError}>
                            {fieldError(`weeks.${w}.${day}.${i}.link`)}
                          </p>
                        ) : null}
                        <div className={styles.cardTools}>
                          <MenuTrigger>
                            <Button
                              className={styles.small}
                              data-move-card={card.uid}
                              aria-label={t('lunchMenu.move', { name: card.header })}
                            >
                              ⇅
                            </Button>
                            <Popover className={styles.popover}>
                              <Menu
                                onAction={(key) => keyboardMove(card.uid, String(key))}
                                disabledKeys={[
                                  ...(i === 0 ? ['up'] : []),
                                  ...(i === week[day].length - 1 ? ['down'] : []),
                                  ...(d === 0 ? ['prevDay'] : []),
                                  ...(d === WEEKDAYS.length - 1 ? ['nextDay'] : []),
                                  ...(w === 0 ? ['prevWeek'] : []),
                                  ...(w === weeks.length - 1 ? ['nextWeek'] : []),
                                ]}
                              >
                                <MenuItem id="up" className={styles.menuItem}>
                                  {t('lunchMenu.move.up')}
                                </MenuItem>
                                <MenuItem id="down" className={styles.menuItem}>
                                  {t('lunchMenu.move.down')}
                                </MenuItem>
                                <MenuItem id="prevDay" className={styles.menuItem}>
                                  {t('lunchMenu.move.prevDay')}
                                </MenuItem>
                                <MenuItem id="nextDay" className={styles.menuItem}>
                                  {t('lunchMenu.move.nextDay')}
                                </MenuItem>
                                <MenuItem id="prevWeek" className={styles.menuItem}>
                                  {t('lunchMenu.move.prevWeek')}
                                </MenuItem>
                                <MenuItem id="nextWeek" className={styles.menuItem}>
                                  {t('lunchMenu.move.nextWeek')}
                                </MenuItem>
                              </Menu>
                            </Popover>
                          </MenuTrigger>
                          <Button
                            className={styles.small}
                            onPress={() =>
                              setSearch({ mode: 'replace', week: w, day, uid: card.uid })
                            }
                          >
                            <span aria-hidden="true">↻</span>
                            <span className="visually-hidden">
                              {t('lunchMenu.replace', { name: card.header })}
                            </span>
                          </Button>
                          <Button className={styles.small} onPress={() => removeCard(card.uid)}>
                            <span aria-hidden="true">✕</span>
                            <span className="visually-hidden">
                              {t('lunchMenu.remove', { name: card.header })}
                            </span>
                          </Button>
                        </div>
                      </li>
                    ))}
                  </ul>
                  <Button
                    className={`${styles.small} ${styles.addCard}`}
                    data-add-day={`${w}-${day}`}
                    isDisabled={week[day].length >= MENU_LIMITS.cardsPerDay}
                    onPress={() => setSearch({ mode: 'add', week: w, day })}
                  >
                    {t('lunchMenu.add', { day: dayName(day) })}
                  </Button>
                </section>
              ))}
            </div>
          </article>
        ))}
      </div>
      <RecipeSearch
        search={search}
        weeks={weeks}
        recipes={recipes}
        onPick={pick}
        onClose={() => setSearch(null)}
      />
    </div>
  );
}

/** The recipe search of 'add' and 'replace': the site's recipes filtered as one types. */
function RecipeSearch(props: {
  search: Search | null;
  weeks: EditWeek[];
  recipes: MenuRecipes | 'failed' | null;
  onPick: (name: string) => void;
  onClose: () => void;
}) {
  const t = useT();
  const { contains } = useFilter({ sensitivity: 'base' });
  const { search, recipes } = props;
  const title = !search
    ? ''
    : search.mode === 'add'
      ? t('lunchMenu.search.add', { day: t(DAY_NAME_KEYS[search.day]) })
      : t('lunchMenu.search.replace', {
          name:
            props.weeks[search.week]?.[search.day].find((c) => c.uid === search.uid)?.header ?? '',
        });
  const items =
    recipes && recipes !== 'failed'
      ? Object.entries(recipes).map(([name, r]) => ({ id: name, name, image: r.image }))
      : [];
  return (
    <ModalOverlay
      className={styles.overlay}
      isDismissable
      isOpen={search !== null}
      onOpenChange={(open) => {
        if (!open) props.onClose();
      }}
    >
      <Modal>
        <Dialog className={styles.dialog}>
          <Heading slot="title">{title}</Heading>
          {recipes === null ? <p role="status">{t('lunchMenu.search.loading')}</p> : null}
          {recipes === 'failed' ? <p role="alert">{t('lunchMenu.search.failed')}</p> : null}
          {recipes && recipes !== 'failed' ? (
            <Autocomplete filter={contains}>
              <SearchField className={styles.field} autoFocus>
                <Label>{t('lunchMenu.search.label')}</Label>
                <Input />
              </SearchField>
              <ListBox
                className={styles.results}
                aria-label={t('lunchMenu.search.results')}
                items={items}
                onAction={(key) => props.onPick(String(key))}
                renderEmptyState={() => <p>{t('lunchMenu.search.none')}</p>}
              >
                {(item) => (
                  <ListBoxItem id={item.id} textValue={item.name} className={styles.result}>
                    {item.image ? <img src={item.image} alt="" width={64} height={36} /> : null}
                    <span>{item.name}</span>
                  </ListBoxItem>
                )}
              </ListBox>
            </Autocomplete>
          ) : null}
          <Button className={styles.secondary} onPress={props.onClose}>
            {t('lunchMenu.search.close')}
          </Button>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
