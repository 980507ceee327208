import { type CalendarDate, parseDate } from '@internationalized/date';
import { type FocusEvent, useCallback, useEffect, useMemo, useRef } from 'react';
import {
  Label as AriaLabel,
  Button,
  DateInput,
  DatePicker,
  DateSegment,
  Dialog,
  Group,
  I18nProvider,
  Popover,
  Text,
} from 'react-aria-components';
import { useController } from 'react-hook-form';
import { useLang, useT } from '../../../i18n/react.tsx';
import { isIsoDate } from '../schemas.ts';
import { type DateFieldProps, dateLocale, partialDateValue } from './date-field.tsx';
import { Star, useField } from './field-base.tsx';
import styles from './forms.module.css';
import { MonthCalendar, type MonthCalendarClasses } from './month-calendar.tsx';

const CALENDAR_CLASSES = {
  calendar: styles.calendar,
  header: styles.calendarHeader,
  nav: styles.calendarNav,
  heading: styles.calendarHeading,
  grid: styles.calendarGrid,
  cell: styles.calendarCell,
} as const satisfies MonthCalendarClasses;

export type DatePickerProps = DateFieldProps & { focusOnMount: boolean };

/** The picker's value for a form value: a valid ISO date, or none. */
export function calendarDateOf(value: unknown): CalendarDate | null {
  const text = typeof value === 'string' ? value.trim() : '';
  return isIsoDate(text) ? parseDate(text.slice(0, 10)) : null;
}

function CalendarIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M7 2h2v2h6V2h2v2h3a1 1 0 0 1 1 1v15a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1h3V2Zm12 8H5v9h14v-9ZM5 6v2h14V6H5Zm2 6h3v3H7v-3Z"
      />
    </svg>
  );
}

/** The date picker: segments dd/MM/yyyy, a button opening the calendar, the error tied to both. */
export function DatePickerField(props: DatePickerProps) {
  const t = useT();
  const lang = useLang();
  const { field } = useController({ name: props.name });
  const { id, error } = useField(props.name, undefined);
  const required = props.required ?? true;
  const group = useRef<HTMLDivElement>(null);
  const { ref, onChange, onBlur } = field;
  // One object per value: the picker takes a new object for a new value.
  const value = useMemo(() => calendarDateOf(field.value), [field.value]);

  const focusFirst = useCallback(() => {
    group.current?.querySelector<HTMLElement>('[role="spinbutton"]')?.focus();
  }, []);
  // react-hook-form focuses the first invalid field through this.
  useEffect(() => ref({ focus: focusFirst }), [ref, focusFirst]);
  useEffect(() => {
    if (props.focusOnMount) focusFirst();
  }, [props.focusOnMount, focusFirst]);

  /** Leaving the segments with only some filled keeps them as text the schema refuses. */
  const onLeave = (event: FocusEvent<Element>) => {
    const segments = group.current;
    if (!segments?.contains(event.target)) return;
    if (segments.contains(event.relatedTarget as Node | null)) return;
    const states = Array.from(
      segments.querySelectorAll<HTMLElement>('[role="spinbutton"]'),
      (segment) => ({
        text: segment.textContent ?? '',
        isPlaceholder: segment.hasAttribute('data-placeholder'),
      }),
    );
    const partial = partialDateValue(states);
    if (partial !== null) onChange(partial);
    onBlur();
  };

  return (
    <I18nProvider locale={dateLocale(lang)}>
      <DatePicker
        className={styles.field}
        value={value}
        onChange={(date) => onChange(date ? date.toString() : '')}
        granularity="day"
        shouldForceLeadingZeros
        isRequired={required}
        isInvalid={Boolean(error)}
        validationBehavior="aria"
      >
        <AriaLabel className={styles.label}>
          {props.label}
          <Star required={required} />
        </AriaLabel>
        <Group
          ref={group}
          id={id}
          tabIndex={-1}
          className={styles.dateGroup}
          lang={lang}
          onBlur={onLeave}
        >
          <DateInput className={styles.dateInput}>
            {(segment) =>
              segment.type === 'literal' ? (
                <span aria-hidden="true" className={styles.dateLiteral}>
                  /
                </span>
              ) : (
                <DateSegment segment={segment} className={styles.dateSegment} />
              )
            }
          </DateInput>
          <Button className={styles.dateButton}>
            <CalendarIcon />
          </Button>
        </Group>
        <Text slot="description" className={styles.hint}>
          {t('form.date.format')}
        </Text>
        {error ? (
          <Text slot="errorMessage" className={styles.error}>
            {t(error)}
          </Text>
        ) : null}
        <Popover className={styles.datePopover} placement="bottom start">
          <Dialog className={styles.dateDialog} lang={lang}>
            <MonthCalendar classes={CALENDAR_CLASSES} />
          </Dialog>
        </Popover>
      </DatePicker>
    </I18nProvider>
  );
}
