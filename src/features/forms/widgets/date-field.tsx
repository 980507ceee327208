import { type CalendarDate, parseDate } from '@internationalized/date';
import { type FocusEvent, useCallback, useEffect, useRef, useState } from 'react';
import {
  Label as AriaLabel,
  Button,
  Calendar,
  CalendarCell,
  CalendarGrid,
  DateInput,
  DatePicker,
  DateSegment,
  Dialog,
  Group,
  Heading,
  I18nProvider,
  Popover,
  Text,
} from 'react-aria-components';
import { useController } from 'react-hook-form';
import { useLang, useT } from '../../../i18n/react.tsx';
import type { Lang } from '../../../sites/types.ts';
import { isIsoDate } from '../schemas.ts';
import { Label, Star, useField, useFieldId, useSummaryEntry } from './field-base.tsx';
import styles from './forms.module.css';

const DATE_INPUT = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/;

/** dd/MM/yyyy (or d.M.yyyy) as typed; the ISO date (yyyy-MM-dd) the payload carries. */
export function toIsoDate(text: string): string {
  const m = DATE_INPUT.exec(text.trim());
  if (!m) return text.trim();
  return `${m[3]}-${(m[2] ?? '').padStart(2, '0')}-${(m[1] ?? '').padStart(2, '0')}`;
}

export function fromIsoDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : iso;
}

/** The picker's value for a form value: a valid ISO date, or none. */
export function calendarDateOf(value: unknown): CalendarDate | null {
  const text = typeof value === 'string' ? value.trim() : '';
  return isIsoDate(text) ? parseDate(text.slice(0, 10)) : null;
}

/**
 * The locale of the picker: Finnish conventions (day first, weeks from Monday) in the page's
 * language, so a Finnish page has Finnish segment names, placeholders (pp/kk/vvvv) and month
 * names. fi-FI writes `d.M.yyyy`; the field shows `dd/MM/yyyy` by forcing leading zeros and
 * drawing its separators as '/', which these locales (all day, month, year) allow.
 */
export function dateLocale(lang: Lang): string {
  return `${lang}-FI`;
}

export interface SegmentState {
  text: string;
  isPlaceholder: boolean;
}

/**
 * What the form holds for the segments the visitor left: `null` when every segment is filled (the
 * picker has given the date), '' when none is, and the visible text when only some are, so the
 * schema refuses it ('Anna päivämäärä muodossa pp/kk/vvvv') instead of sending no date.
 */
export function partialDateValue(segments: SegmentState[]): string | null {
  const filled = segments.filter((s) => !s.isPlaceholder).length;
  if (filled === segments.length) return null;
  if (filled === 0) return '';
  return segments.map((s) => s.text).join('/');
}

interface DateFieldProps {
  name: string;
  label: string;
  required?: boolean;
}

/**
 * A date in dd/MM/yyyy with the Finnish locale, bound to an ISO date string in the form. The
 * server's HTML (and the page until the island hydrates) has a plain text input that takes
 * dd/MM/yyyy; once hydrated it becomes the date picker, keeping what was typed.
 */
export function DateField(props: DateFieldProps) {
  const { field } = useController({ name: props.name });
  const plain = useRef<HTMLInputElement>(null);
  const [picker, setPicker] = useState<'off' | 'on' | 'on-focused'>('off');
  const { onChange } = field;
  const initial = useRef(String(field.value ?? ''));
  useSummaryEntry(props.name, props.label);

  useEffect(() => {
    const input = plain.current;
    const typed = input?.value.trim() ?? '';
    if (typed && typed !== fromIsoDate(initial.current)) onChange(toIsoDate(typed));
    setPicker(input && document.activeElement === input ? 'on-focused' : 'on');
  }, [onChange]);

  return picker === 'off' ? (
    <PlainDateField {...props} inputRef={plain} value={initial.current} />
  ) : (
    <DatePickerField {...props} focusOnMount={picker === 'on-focused'} />
  );
}

/** The field before hydration: a text input in dd/MM/yyyy. */
function PlainDateField(
  props: DateFieldProps & { inputRef: React.Ref<HTMLInputElement>; value: string },
) {
  const t = useT();
  const id = useFieldId(props.name);
  const required = props.required ?? true;
  return (
    <div className={styles.field}>
      <Label htmlFor={id} text={props.label} required={required} />
      <input
        id={id}
        ref={props.inputRef}
        className={`${styles.input} ${styles.dateText}`}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder={t('form.date.placeholder')}
        pattern="\d{1,2}/\d{1,2}/\d{4}"
        maxLength={10}
        defaultValue={fromIsoDate(props.value)}
        aria-required={required || undefined}
        aria-describedby={`${id}-format`}
      />
      <p id={`${id}-format`} className={styles.hint}>
        {t('form.date.format')}
      </p>
    </div>
  );
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
export function DatePickerField(props: DateFieldProps & { focusOnMount: boolean }) {
  const t = useT();
  const lang = useLang();
  const { field } = useController({ name: props.name });
  const { id, error } = useField(props.name, undefined);
  const required = props.required ?? true;
  const group = useRef<HTMLDivElement>(null);
  const { ref, onChange, onBlur } = field;

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
        value={calendarDateOf(field.value)}
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
            <Calendar className={styles.calendar}>
              <header className={styles.calendarHeader}>
                <Button slot="previous" className={styles.calendarNav}>
                  <span aria-hidden="true">‹</span>
                </Button>
                <Heading className={styles.calendarHeading} />
                <Button slot="next" className={styles.calendarNav}>
                  <span aria-hidden="true">›</span>
                </Button>
              </header>
              <CalendarGrid className={styles.calendarGrid}>
                {(date) => <CalendarCell date={date} className={styles.calendarCell} />}
              </CalendarGrid>
            </Calendar>
          </Dialog>
        </Popover>
      </DatePicker>
    </I18nProvider>
  );
}
