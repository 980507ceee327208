import { type CalendarDate, parseDate } from '@internationalized/date';
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

/** A calendar day of a form value (`2026-03-02`), or none for anything else. */
function calendarDay(value: string | undefined): CalendarDate | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  try {
    return parseDate(value);
  } catch {
    return null;
  }
}

/**
 * A labelled date: typed in the language's order (day, month, year segments) or chosen from a
 * calendar its button opens; sent as `name` in ISO form (`2026-03-02`), its error the server's.
 */
export function DateField({
  name,
  label,
  description,
  defaultValue,
  value,
  onChange,
}: {
  name: string;
  label: string;
  description?: string;
  defaultValue?: string;
  value?: string;
  onChange?: (date: string) => void;
}) {
  const error = useFieldError(name);
  return (
    <DatePicker
      name={name}
      granularity="day"
      shouldForceLeadingZeros
      {...(value === undefined
        ? { defaultValue: calendarDay(defaultValue) }
        : { value: calendarDay(value) })}
      onChange={(date) => onChange?.(date ? date.toString() : '')}
      isInvalid={Boolean(error)}
      className={styles.field}
    >
      <PickerParts label={label} description={description} error={error} />
    </DatePicker>
  );
}

/**
 * What a date picker shows inside: its label, the segments and the calendar button, the
 * description, the error and the calendar's popover (the date field's and the date-and-time
 * field's alike).
 */
export function PickerParts({
  label,
  description,
  error,
}: {
  label: string;
  description?: string | undefined;
  error: string | undefined;
}) {
  return (
    <>
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
    </>
  );
}
