import {
  type CalendarDateTime,
  getLocalTimeZone,
  now,
  toCalendarDateTime,
} from '@internationalized/date';
import { DatePicker } from 'react-aria-components';
import styles from './admin.module.css';
import { PickerParts } from './date-field.tsx';
import { useFieldError } from './ui.tsx';

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
      <PickerParts label={label} description={description} error={error} />
    </DatePicker>
  );
}
