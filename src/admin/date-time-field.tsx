import {
  type CalendarDateTime,
  getLocalTimeZone,
  now,
  toCalendarDateTime,
} from '@internationalized/date';
import {
  Button,
  DateInput,
  DatePicker,
  DateSegment,
  Dialog,
  FieldError,
  Group,
  Label,
  Popover,
  Text,
} from 'react-aria-components';
import { MonthCalendar, type MonthCalendarClasses } from '../features/forms/admin.ts';
import styles from './admin.module.css';
import { useFieldError } from './ui.tsx';

const CALENDAR_CLASSES = {
  header: styles.calendarHeader,
  nav: styles.calendarNav,
  heading: styles.calendarHeading,
  grid: styles.calendarGrid,
  cell: styles.calendarCell,
} as const satisfies MonthCalendarClasses;

/** A moment `ms` from now in the browser's time zone, to the minute. */
export function localMomentIn(ms: number): CalendarDateTime {
  const moment = toCalendarDateTime(now(getLocalTimeZone()).add({ milliseconds: ms }));
  return moment.set({ second: 0, millisecond: 0 });
}

/** The moment a field's value names, as an ISO time (the browser's time zone), or null. */
export function isoOf(value: CalendarDateTime | null): string | null {
  return value ? value.toDate(getLocalTimeZone()).toISOString() : null;
}

/**
 * A labelled date and time to the minute (the date field's segments in the language's order and
 * a 24-hour clock, or the calendar its button opens), in the browser's time zone: the scheduled
 * publishing's "at" (decision 167). Controlled: `value` and `onChange`; its error is the
 * server's for `name`.
 */
export function DateTimeField({
  name,
  label,
  description,
  value,
  onChange,
}: {
  name: string;
  label: string;
  description?: string;
  value: CalendarDateTime | null;
  onChange: (value: CalendarDateTime | null) => void;
}) {
  const error = useFieldError(name);
  return (
    <DatePicker
      granularity="minute"
      hourCycle={24}
      shouldForceLeadingZeros
      value={value}
      onChange={onChange}
      isInvalid={Boolean(error)}
      className={styles.field}
    >
      <Label className={styles.label}>{label}</Label>
      <Group className={styles.dateGroup}>
        <DateInput className={styles.dateInput}>
          {(segment) => <DateSegment segment={segment} className={styles.dateSegment} />}
        </DateInput>
        <Button className={styles.dateButton}>
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
            <path
              fill="currentColor"
              d="M7 2h2v2h6V2h2v2h3a1 1 0 0 1 1 1v15a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1h3V2Zm12 8H5v9h14v-9ZM5 6v2h14V6H5Zm2 6h3v3H7v-3Z"
            />
          </svg>
        </Button>
      </Group>
      {description ? (
        <Text slot="description" className={styles.description}>
          {description}
        </Text>
      ) : null}
      <FieldError className={styles.fieldError}>{error}</FieldError>
      <Popover className={styles.popover} placement="bottom start">
        <Dialog className={styles.calendarDialog}>
          <MonthCalendar classes={CALENDAR_CLASSES} />
        </Dialog>
      </Popover>
    </DatePicker>
  );
}
