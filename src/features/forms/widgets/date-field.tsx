import { type ComponentType, useEffect, useRef, useState } from 'react';
import { useController } from 'react-hook-form';
import { useT } from '../../../i18n/react.tsx';
import type { Lang } from '../../../sites/types.ts';
import type { DatePickerProps } from './date-picker.tsx';
import { Label, useFieldId, useSummaryEntry } from './field-base.tsx';
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

export interface DateFieldProps {
  name: string;
  label: string;
  required?: boolean;
}

/**
 * A date in dd/MM/yyyy with the Finnish locale, bound to an ISO date string in the form. The
 * server's HTML (and the page until the picker's code has loaded) has a plain text input that
 * takes dd/MM/yyyy; then the date picker takes its place, keeping what was typed. The picker's
 * code (react-aria's date picker and calendar) loads only where a form has a date.
 */
export function DateField(props: DateFieldProps) {
  const { field } = useController({ name: props.name });
  const plain = useRef<HTMLInputElement>(null);
  const [picker, setPicker] = useState<{
    Component: ComponentType<DatePickerProps>;
    focus: boolean;
  }>();
  const { onChange } = field;
  const initial = useRef(String(field.value ?? ''));
  useSummaryEntry(props.name, props.label);

  useEffect(() => {
    let live = true;
    void import('./date-picker.tsx').then(({ DatePickerField }) => {
      if (!live) return;
      const input = plain.current;
      const typed = input?.value.trim() ?? '';
      if (typed && typed !== fromIsoDate(initial.current)) onChange(toIsoDate(typed));
      const focus = Boolean(input) && document.activeElement === input;
      setPicker({ Component: DatePickerField, focus });
    });
    return () => {
      live = false;
    };
  }, [onChange]);

  return picker ? (
    <picker.Component {...props} focusOnMount={picker.focus} />
  ) : (
    <PlainDateField {...props} inputRef={plain} value={initial.current} />
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
