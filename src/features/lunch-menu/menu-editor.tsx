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
  type EditCard,
  type EditWeek,
  type MenuDraft,
  MOVES,
  type Move,
  type Search,
  useMenuDraft,
  whereOf,
} from './use-menu-draft.ts';
import {
  BACKGROUND_NAME_KEYS,
  BACKGROUNDS,
  type Background,
  DAY_NAME_KEYS,
  type IsoWeek,
  MENU_LIMITS,
  type MenuRecipes,
  type MenuWeek,
  sameWeek,
  stepWeek,
  WEEKDAYS,
  type Weekday,
  weekBounds,
} from './values.ts';

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
  const [recipes, setRecipes] = useState<MenuRecipes | 'failed' | null>(null);
  const [search, setSearch] = useState<Search | null>(null);
  const [tabs, setTabs] = useState<Record<number, string>>({});
  const [announcement, setAnnouncement] = useState('');
  const start = useRef<HTMLHeadingElement>(null);
  const draft = useMenuDraft(props.weeks, bounds, {
    announce: setAnnouncement,
    focusStart: () => start.current?.focus(),
  });
  const saving = useMenuSave(draft.weeks, { onFieldErrors: () => setTabs({}) });

  useEffect(() => {
    fetchRecipes().then(setRecipes, () => setRecipes('failed'));
    start.current?.focus();
  }, []);

  const onPointerDown = useCardDrag({
    onDrop: (uid, place: DropPlace) =>
      draft.moveCard(uid, { ...place, day: place.day as Weekday }, false),
    draggingClass: styles.dragging ?? '',
    dropClass: styles.dropTarget ?? '',
  });

  const pick = (name: string) => {
    const recipe = recipes && recipes !== 'failed' ? recipes[name] : undefined;
    if (!search || !recipe) return;
    draft.putRecipe(search, name, recipe);
    setSearch(null);
  };

  return (
    <div className={styles.menu} data-lunch-menu="" data-editing="" data-keep-clear="">
      <h2 ref={start} tabIndex={-1} className="visually-hidden">
        {t('lunchMenu.edit')}
      </h2>
      <p className={styles.intro}>{t('lunchMenu.editing')}</p>
      {saving.failed ? <SaveRefused saving={saving} weeks={draft.weeks} /> : null}
      <Toolbar draft={draft} bounds={bounds} saving={saving} onCancel={props.onCancel} />
      <p className={styles.hint}>
        {t('lunchMenu.dragHint')} {t('lunchMenu.lastWeek', { week: bounds.last.week })}
      </p>
      <p role="status" className="visually-hidden">
        {announcement}
      </p>
      <div className={styles.weeks}>
        {draft.weeks.map((week, w) => (
          <WeekEditor
            key={`${week.year}-${week.week}`}
            w={w}
            draft={draft}
            fieldError={saving.fieldError}
            tab={tabs[w] ?? 'texts'}
            onTab={(key) => setTabs((all) => ({ ...all, [w]: key }))}
            onSearch={setSearch}
            onPointerDown={onPointerDown}
          />
        ))}
      </div>
      <RecipeSearch
        search={search}
        weeks={draft.weeks}
        recipes={recipes}
        onPick={pick}
        onClose={() => setSearch(null)}
      />
    </div>
  );
}

/**
 * Saving the weeks: a success reloads the page with the new menu's id; a refusal keeps the field
 * errors (each field shows its own) or says why nothing was saved. A refused save prefixes the
 * page's title and moves the focus to the summary (`summary`), as the site's forms do.
 */
function useMenuSave(weeks: EditWeek[], options: { onFieldErrors: () => void }) {
  const t = useT();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<MessageKey | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [saving, setSaving] = useState(false);
  const summary = useRef<HTMLDivElement>(null);
  const pageTitle = useRef<string | null>(null);
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
        options.onFieldErrors();
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

  /**
   * The refusal of a field (`weeks.0.heading`), in words; undefined when it has none. The server
   * names it by key (@texts lunchMenu.error., validation.).
   */
  const fieldError = (field: string) => {
    const key = errors[field];
    return key ? t(key as MessageKey) : undefined;
  };

  return { errors, failure, failed, saving, save, summary, fieldError };
}

type MenuSave = ReturnType<typeof useMenuSave>;
type FieldErrorOf = MenuSave['fieldError'];

/** What refused the save: each field's error named by its week, day and card. */
function SaveRefused({ saving, weeks }: { saving: MenuSave; weeks: EditWeek[] }) {
  const t = useT();
  return (
    <div ref={saving.summary} tabIndex={-1} className={styles.summary} role="alert">
      <h2>{t('lunchMenu.errors.title')}</h2>
      {saving.failure ? <p>{t(saving.failure)}</p> : null}
      <ul>
        {Object.entries(saving.errors).map(([field, key]) => {
          const { week, day, card } = whereOf(field, weeks);
          const where = [
            week ? t('lunchMenu.week', { week: week.week }) : null,
            day ? t(DAY_NAME_KEYS[day]) : null,
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
  );
}

/** Save and cancel, the first week's number, and a week more. */
function Toolbar(props: {
  draft: MenuDraft;
  bounds: { first: IsoWeek; last: IsoWeek };
  saving: MenuSave;
  onCancel: () => void;
}) {
  const t = useT();
  const { draft, bounds, saving } = props;
  const { first, lastWeek } = draft;
  return (
    <div className={styles.toolbar}>
      <Button className={styles.primary} onPress={saving.save} isDisabled={saving.saving}>
        {saving.saving ? t('lunchMenu.saving') : t('lunchMenu.save')}
      </Button>
      <Button className={styles.secondary} onPress={props.onCancel} isDisabled={saving.saving}>
        {t('lunchMenu.cancel')}
      </Button>
      <fieldset className={styles.weekStepper} style={{ border: 0, margin: 0, padding: 0 }}>
        <legend className="visually-hidden">{t('lunchMenu.firstWeek')}</legend>
        <span aria-hidden="true">{t('lunchMenu.firstWeek')}</span>
        <Button
          className={styles.small}
          aria-label={t('lunchMenu.weekEarlier')}
          isDisabled={sameWeek(first, bounds.first)}
          onPress={() => draft.renumber(stepWeek(first, -1))}
        >
          −
        </Button>
        <output aria-live="polite">{t('lunchMenu.week', { week: first.week })}</output>
        <Button
          className={styles.small}
          aria-label={t('lunchMenu.weekLater')}
          isDisabled={sameWeek(lastWeek, bounds.last)}
          onPress={() => draft.renumber(stepWeek(first, 1))}
        >
          +
        </Button>
      </fieldset>
      <Button className={styles.secondary} onPress={draft.addWeek} isDisabled={!draft.canAddWeek}>
        {t('lunchMenu.addWeek')}
      </Button>
    </div>
  );
}

interface WeekEditorProps {
  /** The week's index in the draft. */
  w: number;
  draft: MenuDraft;
  fieldError: FieldErrorOf;
  tab: string;
  onTab: (key: string) => void;
  onSearch: (search: Search) => void;
  onPointerDown: ReturnType<typeof useCardDrag>;
}

/** One week: its number and removal, its settings' tabs, and its five days. */
function WeekEditor(props: WeekEditorProps) {
  const t = useT();
  const { w, draft } = props;
  const week = draft.weeks[w] as EditWeek;
  return (
    <article
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
          isDisabled={draft.weeks.length <= 1}
          onPress={() => draft.removeWeek(w)}
        >
          {t('lunchMenu.removeWeek', { week: week.week })}
        </Button>
      </div>
      <WeekSettings {...props} week={week} />
      <div className={styles.days}>
        {WEEKDAYS.map((day) => (
          <DayEditor key={day} {...props} week={week} day={day} />
        ))}
      </div>
    </article>
  );
}

/** The week's tabs: its heading and text, and its background picture. */
function WeekSettings(props: WeekEditorProps & { week: EditWeek }) {
  const t = useT();
  const { w, week, fieldError } = props;
  const update = (change: Partial<EditWeek>) => props.draft.update(w, change);
  return (
    <Tabs selectedKey={props.tab} onSelectionChange={(key) => props.onTab(String(key))}>
      <TabList className={styles.tabList} aria-label={t('lunchMenu.settings', { week: week.week })}>
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
          onChange={(heading) => update({ heading })}
          maxLength={MENU_LIMITS.heading}
          isInvalid={Boolean(fieldError(`weeks.${w}.heading`))}
        >
          <Label>{t('lunchMenu.heading')}</Label>
          <Input />
          <FieldError className={styles.fieldError}>{fieldError(`weeks.${w}.heading`)}</FieldError>
        </TextField>
        <TextField
          className={styles.field}
          value={week.text}
          onChange={(text) => update({ text })}
          maxLength={MENU_LIMITS.text}
          isInvalid={Boolean(fieldError(`weeks.${w}.text`))}
        >
          <Label>{t('lunchMenu.text')}</Label>
          <TextArea rows={3} />
          <FieldError className={styles.fieldError}>{fieldError(`weeks.${w}.text`)}</FieldError>
        </TextField>
      </TabPanel>
      <TabPanel id="background" className={styles.tabPanel}>
        <RadioGroup
          className={styles.backgrounds}
          aria-label={t('lunchMenu.tab.background')}
          orientation="horizontal"
          value={week.background}
          onChange={(value) => update({ background: value as Background })}
        >
          {BACKGROUNDS.map((background) => (
            <Radio key={background} value={background} className={styles.backgroundOption}>
              <span className={styles.swatch} data-background={background} aria-hidden="true" />
              {t(BACKGROUND_NAME_KEYS[background])}
            </Radio>
          ))}
        </RadioGroup>
      </TabPanel>
    </Tabs>
  );
}

/** A day's cards, a drop target of the drag, and its add button. */
function DayEditor(props: WeekEditorProps & { week: EditWeek; day: Weekday }) {
  const t = useT();
  const { w, week, day } = props;
  return (
    <section
      className={styles.day}
      data-drop-week={w}
      data-drop-day={day}
      aria-labelledby={`lunch-edit-${w}-${day}`}
    >
      <h3 id={`lunch-edit-${w}-${day}`} className={styles.dayName}>
        {t(DAY_NAME_KEYS[day])}
      </h3>
      <ul className={styles.cards}>
        {week[day].map((card, i) => (
          <CardEditor key={card.uid} {...props} card={card} index={i} />
        ))}
      </ul>
      <Button
        className={`${styles.small} ${styles.addCard}`}
        data-add-day={`${w}-${day}`}
        isDisabled={week[day].length >= MENU_LIMITS.cardsPerDay}
        onPress={() => props.onSearch({ mode: 'add', week: w, day })}
      >
        {t('lunchMenu.add', { day: t(DAY_NAME_KEYS[day]) })}
      </Button>
    </section>
  );
}

/** A card: its picture and name, its link's error, and its Move, Replace and Remove buttons. */
function CardEditor(
  props: WeekEditorProps & { week: EditWeek; day: Weekday; card: EditCard; index: number },
) {
  const t = useT();
  const { w, day, card, draft } = props;
  const linkError = props.fieldError(`weeks.${w}.${day}.${props.index}.link`);
  return (
    <li
      data-card={card.uid}
      className={`${styles.card} ${styles.editCard}`}
      onPointerDown={props.onPointerDown(card.uid)}
    >
      <div className={styles.cardLink}>
        {card.image ? (
          <img className={styles.cardImage} src={card.image} alt="" width={800} height={450} />
        ) : (
          <span className={styles.cardImage} />
        )}
        <span className={styles.cardHeader}>{card.header}</span>
      </div>
      {linkError ? <p className={styles.fieldError}>{linkError}</p> : null}
      <div className={styles.cardTools}>
        <MoveMenu {...props} />
        <Button
          className={styles.small}
          onPress={() => props.onSearch({ mode: 'replace', week: w, day, uid: card.uid })}
        >
          <span aria-hidden="true">↻</span>
          <span className="visually-hidden">{t('lunchMenu.replace', { name: card.header })}</span>
        </Button>
        <Button className={styles.small} onPress={() => draft.removeCard(card.uid)}>
          <span aria-hidden="true">✕</span>
          <span className="visually-hidden">{t('lunchMenu.remove', { name: card.header })}</span>
        </Button>
      </div>
    </li>
  );
}

const isMove = (key: string): key is Move => (MOVES as readonly string[]).includes(key);

/** The card's Move menu, the way to move it without a pointer; moves it cannot make are off. */
function MoveMenu(
  props: WeekEditorProps & { week: EditWeek; day: Weekday; card: EditCard; index: number },
) {
  const t = useT();
  const { w, week, day, card, index, draft } = props;
  const labels: Record<Move, string> = {
    up: t('lunchMenu.move.up'),
    down: t('lunchMenu.move.down'),
    prevDay: t('lunchMenu.move.prevDay'),
    nextDay: t('lunchMenu.move.nextDay'),
    prevWeek: t('lunchMenu.move.prevWeek'),
    nextWeek: t('lunchMenu.move.nextWeek'),
  };
  const d = WEEKDAYS.indexOf(day);
  const disabled: Move[] = [
    ...(index === 0 ? (['up'] as const) : []),
    ...(index === week[day].length - 1 ? (['down'] as const) : []),
    ...(d === 0 ? (['prevDay'] as const) : []),
    ...(d === WEEKDAYS.length - 1 ? (['nextDay'] as const) : []),
    ...(w === 0 ? (['prevWeek'] as const) : []),
    ...(w === draft.weeks.length - 1 ? (['nextWeek'] as const) : []),
  ];
  return (
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
          onAction={(key) => {
            if (isMove(String(key))) draft.moveByMenu(card.uid, String(key) as Move);
          }}
          disabledKeys={disabled}
        >
          {MOVES.map((move) => (
            <MenuItem key={move} id={move} className={styles.menuItem}>
              {labels[move]}
            </MenuItem>
          ))}
        </Menu>
      </Popover>
    </MenuTrigger>
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
